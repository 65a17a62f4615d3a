import type { FilterEnvironment } from '@antares/contract';
import { useQuery } from '@tanstack/react-query';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';

/** GET /filter_environment: what filters may import, with the versions installed on the server. */
export async function getFilterEnvironment(signal?: AbortSignal): Promise<FilterEnvironment> {
  const document = await apiGet<JsonApiDocument<JsonApiResource<FilterEnvironment>>>('/filter_environment', undefined, signal);
  return document.data.attributes;
}

/** It changes only when the server's packages do (a restart): fetched once per page load. */
export function useFilterEnvironment() {
  return useQuery({ queryKey: ['filter-environment'], queryFn: ({ signal }) => getFilterEnvironment(signal), staleTime: Infinity });
}
