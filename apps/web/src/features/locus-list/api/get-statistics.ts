import { useQuery } from '@tanstack/react-query';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';
import { elasticsearchQuery, type SearchFilter } from '@/lib/locus-query';

export interface LocusStatistics {
  tags: Record<string, number>;
  catalogs: Record<string, number>;
  /** Null when nothing matches the filters: there is no range of measurements then. */
  min_num_measurements: number | null;
  max_num_measurements: number | null;
}

/** Search dimensions for the current filters: tag/catalog counts and the measurement-count bounds. */
export async function getStatistics(filters: SearchFilter[], signal?: AbortSignal): Promise<LocusStatistics> {
  const document = await apiGet<JsonApiDocument<JsonApiResource<Partial<LocusStatistics>>>>(
    '/loci/statistics',
    { 'elasticsearch_query[locus_listing_statistic]': elasticsearchQuery(filters) },
    signal,
  );
  const attributes = document.data?.attributes ?? {};
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
