import { useQuery } from '@tanstack/react-query';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';

export interface PipelineFilter {
  /** The filter runner id: the filter name. */
  id: string;
  name: string;
  description?: string;
  /** The filter's id, when its record is visible to the caller (public filters, or one's own). */
  filterId: string | null;
}

interface RunnerAttributes {
  name?: string;
  enabled?: boolean;
}

interface FilterAttributes {
  name?: string;
  description?: string;
  enabled_version?: string | number | null;
}

const FILTER_PAGE = 100;
const MAX_FILTER_PAGES = 10;

/**
 * The filter records of runner entries, matched by name (the runner names filters, the versions are
 * fetched by filter id): GET /filters a page of 100 at a time until every name is found.
 */
async function filtersByName(names: string[], signal?: AbortSignal): Promise<Map<string, JsonApiResource<FilterAttributes>>> {
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  const found = new Map<string, JsonApiResource<FilterAttributes>>();
  for (let page = 0; page < MAX_FILTER_PAGES && found.size < wanted.size; page += 1) {
    const document = await apiGet<JsonApiDocument<JsonApiResource<FilterAttributes>[]>>(
      '/filters',
      { 'page[limit]': FILTER_PAGE, 'page[offset]': page * FILTER_PAGE, sort: '-created_at' },
      signal,
    );
    for (const item of document.data ?? []) {
      const key = (item.attributes.name ?? '').toLowerCase();
      if (wanted.has(key)) found.set(key, item);
    }
    if ((document.data ?? []).length < FILTER_PAGE || !document.links?.next) break;
  }
  return found;
}

/** Enabled filters of the filter runner (limit 100, offset 0), with their descriptions. */
export async function getEnabledFilters(signal?: AbortSignal): Promise<PipelineFilter[]> {
  const runner = await apiGet<JsonApiDocument<JsonApiResource<RunnerAttributes>[]>>(
    '/filter_runner',
    { 'page[limit]': 100, 'page[offset]': 0 },
    signal,
  );
  const enabled = (runner.data ?? []).filter((item) => item.attributes.enabled);
  if (enabled.length === 0) return [];
  const records = await filtersByName(
    enabled.map((item) => item.attributes.name ?? item.id),
    signal,
  ).catch(() => new Map<string, JsonApiResource<FilterAttributes>>());
  return enabled.map((item) => {
    const name = item.attributes.name ?? item.id;
    const record = records.get(name.toLowerCase());
    return { id: item.id, name, description: record?.attributes.description, filterId: record ? String(record.id) : null };
  });
}

export function useEnabledFilters() {
  return useQuery({ queryKey: ['pipeline-filters'], queryFn: ({ signal }) => getEnabledFilters(signal), staleTime: 300_000 });
}

/** The code of a filter's enabled version, fetched by filter id on first open. */
export async function getEnabledCode(filterId: string, signal?: AbortSignal): Promise<string> {
  const filter = await apiGet<JsonApiDocument<JsonApiResource<FilterAttributes>>>(
    `/filters/${encodeURIComponent(filterId)}`,
    undefined,
    signal,
  );
  const versionId = filter.data.attributes.enabled_version;
  if (versionId === undefined || versionId === null) return '# This filter has no enabled version.';
  const version = await apiGet<JsonApiDocument<JsonApiResource<{ code?: string }>>>(
    `/filters/${encodeURIComponent(filterId)}/versions/${encodeURIComponent(String(versionId))}`,
    undefined,
    signal,
  );
  return version.data.attributes.code ?? '';
}

export function useEnabledCode(filterId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: ['pipeline-filter-code', filterId],
    queryFn: ({ signal }) => getEnabledCode(filterId ?? '', signal),
    enabled: enabled && filterId !== null,
    staleTime: 300_000,
  });
}
