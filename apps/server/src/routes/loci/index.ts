import { createFinderChart, getLocus, listLocusAlerts, lociStatistics, searchLoci } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { alertResource } from '../../serializers/alert.ts';
import { listDocument } from '../../serializers/documents.ts';
import { locusDocument, locusListingResource, locusStatisticResource } from '../../serializers/locus.ts';
import { FinderChartService } from '../../services/finder-chart.ts';
import { LociService } from '../../services/loci-service.ts';
import { sparseFields } from '../../services/query-params.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl, selfUrl, withOffset } from '../request-url.ts';

export function lociRoutes(app: FastifyInstance, { auth, config, repos }: RouteContext): void {
  const loci = new LociService(repos);
  const finderCharts = new FinderChartService(repos);

  route(app, auth, searchLoci, async (request) => {
    const query = request.query;
    const base = baseUrl(request, config.publicUrl);
    const page = await loci.list({
      limit: query['page[limit]'] ?? 25,
      offset: query['page[offset]'] ?? 0,
      sort: query.sort,
      search: query['elasticsearch_query[locus_listing]'],
      seed: query['page[seed]'],
    });
    const fields = sparseFields(query['fields[locus_listing]'] ?? query['fields[locus]']);
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

  route(app, auth, lociStatistics, async (request) => ({
    data: locusStatisticResource(await loci.statistics(request.query['elasticsearch_query[locus_listing_statistic]'])),
  }));

  route(app, auth, getLocus, async (request) => locusDocument(baseUrl(request, config.publicUrl), await loci.get(request.params.locusId)));

  route(app, auth, createFinderChart, async (request, reply) => {
    const pdf = await finderCharts.render(request.params.locusId);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="antares-locus-${request.params.locusId}.pdf"`)
      .send(pdf);
  });

  route(app, auth, listLocusAlerts, async (request) => {
    const base = baseUrl(request, config.publicUrl);
    const alerts = await loci.alerts(request.params.locusId);
    return listDocument(
      alerts.map((a) => alertResource(base, a)),
      { self: selfUrl(base, request), count: alerts.length },
    );
  });
}
