import type { listCatalogSamples, ResponseOf } from '@antares/contract/endpoints';
import { useQuery } from '@tanstack/react-query';

import { apiGet } from '@/lib/api-client';

type SampleList = ResponseOf<typeof listCatalogSamples>;
export type CatalogSample = SampleList['data'][number]['attributes'] & { id: string };

/** GET /catalog_samples (no parameters), grouped by catalog name. */
export async function getCatalogSamples(signal?: AbortSignal): Promise<Map<string, CatalogSample[]>> {
  const document = await apiGet<SampleList>('/catalog_samples', undefined, signal);
  const groups = new Map<string, CatalogSample[]>();
  for (const item of document.data ?? []) {
    const sample = { ...item.attributes, data: item.attributes.data ?? {}, id: item.id };
    groups.set(sample.catalog_name, [...(groups.get(sample.catalog_name) ?? []), sample]);
  }
  return groups;
}

export function useCatalogSamples() {
  return useQuery({ queryKey: ['catalog-samples'], queryFn: ({ signal }) => getCatalogSamples(signal), staleTime: 600_000 });
}
