import type { FastifyInstance } from 'fastify';
import { matchPositions } from '@antares/pipeline';
import type { RouteContext } from '../context.ts';
import { integerParam, pageOf, single, type QueryParams } from '../../services/query-params.ts';
import { baseUrl, pageLinks } from '../../services/request-url.ts';
import { listDocument } from '../../serializers/documents.ts';
import { catalogEntryResource, catalogSampleResource } from '../../serializers/catalog.ts';
import { badRequest, notFound } from '../../errors.ts';

const SAMPLES_MAX = 100;

/** Catalog matches of a locus, samples of every catalog, and a catalog search at a position. */
export function catalogRoutes(app: FastifyInstance, { repos, config }: RouteContext): void {
  app.get<{ Params: { locusId: string } }>('/v1/loci/:locusId/catalog-matches', async (request) => {
    if (!(await repos.loci.findById(request.params.locusId))) throw notFound(`No locus with id "${request.params.locusId}"`);
    const query = request.query as QueryParams;
    const sort = single(query, 'sort') || 'meta.separation';
    if (sort !== 'meta.separation' && sort !== '-meta.separation') throw badRequest('sort must be meta.separation or -meta.separation');
    const { limit, offset } = pageOf(query, 10);
    const page = await repos.catalogs.matchesOfLocus(request.params.locusId, { descending: sort.startsWith('-'), limit, offset });
    return listDocument(page.rows.map(catalogEntryResource), pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }));
  });

  app.get('/v1/catalog_samples', async (request) => {
    const n = integerParam(request.query as QueryParams, 'n', 5, 1, SAMPLES_MAX);
    const samples = await repos.catalogs.samples(n);
    return { data: samples.map(catalogSampleResource), meta: { count: samples.length } };
  });

  app.get<{ Params: { ra: string; dec: string } }>('/v1/catalog_search/:ra/:dec', async (request) => {
    const ra = Number(request.params.ra);
    const dec = Number(request.params.dec);
    if (!Number.isFinite(ra) || ra < 0 || ra >= 360) throw badRequest('ra must be a number of degrees from 0 to 360');
    if (!Number.isFinite(dec) || dec < -90 || dec > 90) throw badRequest('dec must be a number of degrees from -90 to 90');
    const matches = await matchPositions(repos, [{ id: 'position', ra, dec }]);
    const rows = await repos.catalogs.objectsById(matches.map((m) => m.object_id));
    return { data: rows.map(catalogSampleResource), meta: { count: rows.length } };
  });
}
