import { useQuery } from '@tanstack/react-query';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';

export interface PropertyDefinition {
  id: string;
  type?: string;
  origin?: string;
  description?: string;
}

/** Locus property definitions (type, origin, description), used to annotate a locus' properties. */
export async function getLocusPropertyDefinitions(signal?: AbortSignal): Promise<Map<string, PropertyDefinition>> {
  const definitions = new Map<string, PropertyDefinition>();
  let next: string | undefined = '/loci_properties';
  let params: Record<string, number> | undefined = { 'page[limit]': 1000, 'page[offset]': 0 };
  for (let page = 0; next && page < 50; page += 1) {
    const document: JsonApiDocument<JsonApiResource<Omit<PropertyDefinition, 'id'>>[]> = await apiGet(next, params, signal);
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
