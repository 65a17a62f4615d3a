import type { getFilterEnvironment as getFilterEnvironmentEndpoint, ResponseOf } from '@antares/contract/endpoints';
import { useQuery } from '@tanstack/react-query';

import { apiGet } from '@/lib/api-client';

type EnvironmentDocument = ResponseOf<typeof getFilterEnvironmentEndpoint>;
export type FilterEnvironment = EnvironmentDocument['data']['attributes'];

/** GET /filter_environment: what filters may import, with the versions installed on the server. */
export async function getFilterEnvironment(signal?: AbortSignal): Promise<FilterEnvironment> {
  const document = await apiGet<EnvironmentDocument>('/filter_environment', undefined, signal);
  return document.data.attributes;
}

/** It changes only when the server's packages do (a restart): fetched once per page load. */
export function useFilterEnvironment() {
  return useQuery({ queryKey: ['filter-environment'], queryFn: ({ signal }) => getFilterEnvironment(signal), staleTime: Infinity });
}
