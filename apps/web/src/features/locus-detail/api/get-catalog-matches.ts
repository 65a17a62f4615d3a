import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';

export interface CatalogMatch {
  id: string;
  object_id?: string;
  object_name?: string;
  name?: string;
  ra: number;
  dec: number;
  properties: Record<string, unknown>;
  catalog_name: string;
  radius: number | null;
  separation: number;
}

type Attributes = Omit<CatalogMatch, 'id' | 'catalog_name' | 'radius' | 'separation'>;

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
  const document = await apiGet<JsonApiDocument<JsonApiResource<Attributes>[]>>(
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
