import type { listLocusProperties, ResponseOf } from '@antares/contract/endpoints';
import { useQuery } from '@tanstack/react-query';

import { apiGet } from '@/lib/api-client';

type PropertyList = ResponseOf<typeof listLocusProperties>;
export type PropertyDefinition = PropertyList['data'][number]['attributes'] & { id: string };

/** Locus property definitions (type, origin, description), used to annotate a locus' properties. */
export async function getLocusPropertyDefinitions(signal?: AbortSignal): Promise<Map<string, PropertyDefinition>> {
  const definitions = new Map<string, PropertyDefinition>();
  let next: string | undefined = '/loci_properties';
  let params: Record<string, number> | undefined = { 'page[limit]': 1000, 'page[offset]': 0 };
  for (let page = 0; next && page < 50; page += 1) {
    const document: PropertyList = await apiGet(next, params, signal);
    for (const item of document.data ?? []) definitions.set(item.id, { ...item.attributes, id: item.id });
    next = document.links?.next;
    params = undefined;
  }
  return definitions;
}

export function useLocusPropertyDefinitions(enabled: boolean) {
  return useQuery({
    queryKey: ['locus-property-definitions'],
    queryFn: ({ signal }) => getLocusPropertyDefinitions(signal),
    enabled,
    staleTime: 600_000,
  });
}
