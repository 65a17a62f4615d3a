import { useQuery } from '@tanstack/react-query';
import { apiGet, type JsonApiDocument, type JsonApiResource } from '../../../lib/api-client';

export interface PipelineFilter {
  id: string;
  name: string;
  description?: string;
}

interface RunnerAttributes {
  name?: string;
  enabled?: boolean;
}

interface FilterAttributes {
  name?: string;
  description?: string;
  enabled_version?: string | number | { id?: string | number } | null;
}

/** Enabled filters of the filter runner (limit 100, offset 0), with their descriptions. */
export async function getEnabledFilters(signal?: AbortSignal): Promise<PipelineFilter[]> {
  const runner = await apiGet<JsonApiDocument<JsonApiResource<RunnerAttributes>[]>>('/filter_runner', { 'page[limit]': 100, 'page[offset]': 0 }, signal);
  const enabled = (runner.data ?? []).filter((item) => item.attributes.enabled);
  return Promise.all(
    enabled.map(async (item) => {
      try {
        const filter = await apiGet<JsonApiDocument<JsonApiResource<FilterAttributes>>>(`/filters/${encodeURIComponent(item.id)}`, undefined, signal);
        return { id: item.id, name: filter.data.attributes.name ?? item.attributes.name ?? item.id, description: filter.data.attributes.description };
      } catch {
        return { id: item.id, name: item.attributes.name ?? item.id };
      }
    }),
  );
}

export function useEnabledFilters() {
  return useQuery({ queryKey: ['pipeline-filters'], queryFn: ({ signal }) => getEnabledFilters(signal), staleTime: 300_000 });
}

/** The code of a filter's enabled version, fetched by filter id on first open. */
export async function getEnabledCode(filterId: string, signal?: AbortSignal): Promise<string> {
  const filter = await apiGet<JsonApiDocument<JsonApiResource<FilterAttributes>>>(`/filters/${encodeURIComponent(filterId)}`, undefined, signal);
  const enabled = filter.data.attributes.enabled_version;
  const versionId = typeof enabled === 'object' && enabled !== null ? enabled.id : enabled;
  if (versionId === undefined || versionId === null) return '# This filter has no enabled version.';
  const version = await apiGet<JsonApiDocument<JsonApiResource<{ code?: string }>>>(
    `/filters/${encodeURIComponent(filterId)}/versions/${encodeURIComponent(String(versionId))}`,
    undefined,
    signal,
  );
  return version.data.attributes.code ?? '';
}

export function useEnabledCode(filterId: string, enabled: boolean) {
  return useQuery({ queryKey: ['pipeline-filter-code', filterId], queryFn: ({ signal }) => getEnabledCode(filterId, signal), enabled, staleTime: 300_000 });
}
