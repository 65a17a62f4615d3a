import type { BodyOf, getFilterRunner, listFilterRunner, ResponseOf, updateFilterRunner } from '@antares/contract/endpoints';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiFetch, apiGet } from '@/lib/api-client';
import type { ListParams } from '@/lib/use-server-list';

import { FILTERS_KEY } from './filters';

type RunnerList = ResponseOf<typeof listFilterRunner>;
/** A filter of the filter runner: its id is the filter name. */
export type RunnerFilter = RunnerList['data'][number]['attributes'] & { id: string };

export async function listRunnerFilters(
  { page, perPage, sort }: ListParams,
  signal?: AbortSignal,
): Promise<{ filters: RunnerFilter[]; count: number }> {
  const document = await apiGet<RunnerList>(
    '/filter_runner',
    { 'page[limit]': perPage, 'page[offset]': (page - 1) * perPage, sort },
    signal,
  );
  const filters = (document.data ?? []).map((item) => ({ ...item.attributes, name: item.attributes.name ?? item.id, id: String(item.id) }));
  return { filters, count: document.meta?.count ?? filters.length };
}

export const RUNNER_KEY = [...FILTERS_KEY, 'runner'] as const;

export function useRunnerFilters(params: ListParams) {
  return useQuery({
    queryKey: [...RUNNER_KEY, params],
    queryFn: ({ signal }) => listRunnerFilters(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** GET /filter_runner/{name}: one enabled filter's state and budget (null name: nothing is fetched). */
export function useRunnerFilter(name: string | null) {
  return useQuery({
    queryKey: [...RUNNER_KEY, 'one', name],
    queryFn: async ({ signal }): Promise<RunnerFilter> => {
      const document = await apiGet<ResponseOf<typeof getFilterRunner>>(`/filter_runner/${encodeURIComponent(name ?? '')}`, {}, signal);
      return { ...document.data.attributes, id: String(document.data.id) };
    },
    enabled: name !== null,
    staleTime: 0,
  });
}

/** PATCH /filter_runner/{name} (enabled; admins only). */
export async function setRunnerEnabled(name: string, enabled: boolean): Promise<void> {
  await apiFetch(`/filter_runner/${encodeURIComponent(name)}`, {
    method: 'PATCH',
    body: { data: { type: 'filter_runner_filter', id: name, attributes: { enabled } satisfies BodyOf<typeof updateFilterRunner> } },
  });
}
