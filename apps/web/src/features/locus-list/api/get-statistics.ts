import type { lociStatistics, ResponseOf } from '@antares/contract/endpoints';
import { useQuery } from '@tanstack/react-query';

import { apiGet } from '@/lib/api-client';
import { elasticsearchQuery, type SearchFilter } from '@/lib/locus-query';

type StatisticsDocument = ResponseOf<typeof lociStatistics>;
/** Tag and catalog counts; the measurement bounds are null when nothing matches the filters. */
export type LocusStatistics = StatisticsDocument['data']['attributes'];

/** Search dimensions for the current filters: tag/catalog counts and the measurement-count bounds. */
export async function getStatistics(filters: SearchFilter[], signal?: AbortSignal): Promise<LocusStatistics> {
  const document = await apiGet<Partial<StatisticsDocument>>(
    '/loci/statistics',
    { 'elasticsearch_query[locus_listing_statistic]': elasticsearchQuery(filters) },
    signal,
  );
  const attributes: Partial<LocusStatistics> = document.data?.attributes ?? {};
  return {
    tags: attributes.tags ?? {},
    catalogs: attributes.catalogs ?? {},
    min_num_measurements: attributes.min_num_measurements ?? null,
    max_num_measurements: attributes.max_num_measurements ?? null,
  };
}

export function useStatistics(filters: SearchFilter[]) {
  return useQuery({
    queryKey: ['loci-statistics', filters],
    queryFn: ({ signal }) => getStatistics(filters, signal),
    staleTime: 60_000,
  });
}
