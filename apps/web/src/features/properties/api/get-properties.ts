import type { listAlertProperties, listLocusProperties, ResponseOf } from '@antares/contract/endpoints';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiGet } from '@/lib/api-client';

type PropertyList = ResponseOf<typeof listAlertProperties> | ResponseOf<typeof listLocusProperties>;
export type PropertyDefinition = PropertyList['data'][number]['attributes'] & { id: string };

export type PropertyResource = 'loci_properties' | 'alert_properties';

export async function getProperties(resource: PropertyResource, page: number, perPage: number, sort: string, signal?: AbortSignal) {
  const document = await apiGet<PropertyList>(
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
