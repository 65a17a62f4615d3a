import type { FastifyInstance } from 'fastify';

import { catalogEntryResource, catalogSampleResource } from '../../serializers/catalog.ts';
import { listDocument } from '../../serializers/documents.ts';
import { CatalogService, SAMPLES_MAX } from '../../services/catalog-service.ts';
import { integerParam, pageOf, type QueryParams, single } from '../../services/query-params.ts';
import { baseUrl, pageLinks } from '../../services/request-url.ts';
import type { RouteContext } from '../context.ts';

/** Catalog matches of a locus, samples of every catalog, and a catalog search at a position. */
export function catalogRoutes(app: FastifyInstance, { repos, config }: RouteContext): void {
  const catalogs = new CatalogService(repos);

  app.get<{ Params: { locusId: string } }>('/v1/loci/:locusId/catalog-matches', async (request) => {
    const query = request.query as QueryParams;
    const { limit, offset } = pageOf(query, 10);
    const page = await catalogs.matchesOf(request.params.locusId, single(query, 'sort'), { limit, offset });
    return listDocument(
      page.rows.map(catalogEntryResource),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });

  app.get('/v1/catalog_samples', async (request) => {
    const samples = await catalogs.samples(integerParam(request.query as QueryParams, 'n', 5, 1, SAMPLES_MAX));
    return { data: samples.map(catalogSampleResource), meta: { count: samples.length } };
  });

  app.get<{ Params: { ra: string; dec: string } }>('/v1/catalog_search/:ra/:dec', async (request) => {
    const rows = await catalogs.at(request.params.ra, request.params.dec);
    return { data: rows.map(catalogSampleResource), meta: { count: rows.length } };
  });
}
