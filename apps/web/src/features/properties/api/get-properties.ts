import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';

export interface PropertyDefinition {
  id: string;
  type?: string;
  origin?: string;
  description?: string;
}

export type PropertyResource = 'loci_properties' | 'alert_properties';

export async function getProperties(resource: PropertyResource, page: number, perPage: number, sort: string, signal?: AbortSignal) {
  const document = await apiGet<JsonApiDocument<JsonApiResource<Omit<PropertyDefinition, 'id'>>[]>>(
    `/${resource}`,
    { 'page[limit]': perPage, 'page[offset]': (page - 1) * perPage, sort },
    signal,
  );
  const rows = (document.data ?? []).map((item) => ({ ...item.attributes, id: item.id }));
  return { rows, count: document.meta?.count ?? rows.length };
}

export function useProperties(resource: PropertyResource, page: number, perPage: number, sort: string) {
  return useQuery({
    queryKey: ['property-definitions', resource, page, perPage, sort],
    queryFn: ({ signal }) => getProperties(resource, page, perPage, sort, signal),
    placeholderData: keepPreviousData,
  });
}
