import { catalogSearch, listCatalogMatches, listCatalogSamples } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { catalogEntryResource, catalogSampleResource } from '../../serializers/catalog.ts';
import { listDocument } from '../../serializers/documents.ts';
import { CatalogService } from '../../services/catalog-service.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

/** Catalog matches of a locus, samples of every catalog, and a catalog search at a position. */
export function catalogRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const catalogs = new CatalogService(repos);

  route(app, auth, listCatalogMatches, async (request) => {
    const { 'page[limit]': limit = 10, 'page[offset]': offset = 0, sort = 'meta.separation' } = request.query;
    const page = await catalogs.matchesOf(request.params.locusId, { descending: sort.startsWith('-'), limit, offset });
    return listDocument(
      page.rows.map(catalogEntryResource),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });

  route(app, auth, listCatalogSamples, async (request) => {
    const samples = await catalogs.samples(request.query.n ?? 5);
    return { data: samples.map(catalogSampleResource), meta: { count: samples.length } };
  });

  route(app, auth, catalogSearch, async (request) => {
    const rows = await catalogs.at(request.params.ra, request.params.dec);
    return { data: rows.map(catalogSampleResource), meta: { count: rows.length } };
  });
}
