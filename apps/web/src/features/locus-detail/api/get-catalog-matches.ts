import type { listCatalogMatches, ResponseOf } from '@antares/contract/endpoints';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiGet } from '@/lib/api-client';

type MatchList = ResponseOf<typeof listCatalogMatches>;
type Entry = MatchList['data'][number];
/** A catalog entry's attributes with its meta (catalog, radius and separation in arcsec) beside them. */
export type CatalogMatch = Entry['attributes'] & NonNullable<Entry['meta']> & { id: string };

export interface CatalogMatchPage {
  matches: CatalogMatch[];
  count: number;
}

export async function getCatalogMatches(
  locusId: string,
  page: number,
  perPage: number,
  sort: string,
  signal?: AbortSignal,
): Promise<CatalogMatchPage> {
  const document = await apiGet<MatchList>(
    `/loci/${encodeURIComponent(locusId)}/catalog-matches`,
    { 'page[limit]': perPage, 'page[offset]': (page - 1) * perPage, sort },
    signal,
  );
  const matches = (document.data ?? []).map((item) => {
    const meta = (item.meta ?? {}) as { catalog_name?: string; radius?: number | null; separation?: number };
    return {
      ...item.attributes,
      properties: item.attributes.properties ?? {},
      id: item.id,
      catalog_name: meta.catalog_name ?? item.id.split(':')[0],
      radius: meta.radius ?? null,
      separation: meta.separation ?? Number.NaN,
    };
  });
  return { matches, count: document.meta?.count ?? matches.length };
}

export function useCatalogMatches(locusId: string, page: number, perPage: number, sort: string) {
  return useQuery({
    queryKey: ['catalog-matches', locusId, page, perPage, sort],
    queryFn: ({ signal }) => getCatalogMatches(locusId, page, perPage, sort, signal),
    placeholderData: keepPreviousData,
  });
}
