import type { FastifyInstance } from 'fastify';

import { alertResource } from '../../serializers/alert.ts';
import { listDocument } from '../../serializers/documents.ts';
import { locusListingResource, locusResource } from '../../serializers/locus.ts';
import { newestThumbnailsMeta } from '../../serializers/thumbnail.ts';
import { FinderChartService } from '../../services/finder-chart.ts';
import { LociService } from '../../services/loci-service.ts';
import { type QueryParams, sparseFields } from '../../services/query-params.ts';
import type { RouteContext } from '../context.ts';
import { baseUrl, selfUrl, withOffset } from '../request-url.ts';

export function lociRoutes(app: FastifyInstance, { config, repos }: RouteContext): void {
  const loci = new LociService(repos);
  const finderCharts = new FinderChartService(repos);

  app.get('/v1/loci', async (request) => {
    const query = request.query as QueryParams;
    const base = baseUrl(request, config.publicUrl);
    const page = await loci.list(query);
    const fields = sparseFields(query, 'locus_listing') ?? sparseFields(query, 'locus');
    const data = page.rows.map((row) =>
      locusListingResource(base, row, page.thumbnails.get(row.newest_thumbnail_alert_id ?? '') ?? [], fields),
    );
    return listDocument(data, {
      self: selfUrl(base, request),
      next: page.hasMore
        ? withOffset(base, request, page.offset + page.limit, page.randomSeed ? { 'page[seed]': page.randomSeed } : {})
        : undefined,
      count: page.count,
      // Counts above 1,000 matches are the planner's estimate (see LocusRepository.countMatches).
      meta: page.countIsEstimate ? { count_is_estimate: true } : undefined,
    });
  });

  app.get('/v1/loci/statistics', async (request) => {
    const stats = await loci.statistics(request.query as QueryParams);
    return {
      data: {
        type: 'locus_listing_statistic',
        id: 'locus_listing_statistic',
        attributes: {
          tags: stats.tags,
          catalogs: stats.catalogs,
          min_num_measurements: stats.minNumMeasurements,
          max_num_measurements: stats.maxNumMeasurements,
        },
      },
    };
  });

  app.get<{ Params: { locusId: string } }>('/v1/loci/:locusId', async (request) => {
    const base = baseUrl(request, config.publicUrl);
    const { locus, thumbnails, galactic, lightcurve, matches } = await loci.get(request.params.locusId);
    return {
      data: { ...locusResource(base, locus, lightcurve, matches), meta: { coordinates: { galactic } } },
      links: { self: `${base}/v1/loci/${locus.locus_id}` },
      meta: { coordinates: { galactic }, newest_thumbnails: newestThumbnailsMeta(base, thumbnails) },
    };
  });

  app.post<{ Params: { locusId: string } }>('/v1/loci/:locusId/finder-charts', async (request, reply) => {
    const pdf = await finderCharts.render(request.params.locusId);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="antares-locus-${request.params.locusId}.pdf"`)
      .send(pdf);
  });

  app.get<{ Params: { locusId: string } }>('/v1/loci/:locusId/alerts', async (request) => {
    const base = baseUrl(request, config.publicUrl);
    const alerts = await loci.alerts(request.params.locusId);
    return listDocument(
      alerts.map((a) => alertResource(base, a)),
      { self: selfUrl(base, request), count: alerts.length },
    );
  });
}
