import type { getFilter as getFilterEndpoint, getFilterVersion as getFilterVersionEndpoint, ResponseOf } from '@antares/contract/endpoints';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiFetch, apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';
import { USER_DATA_KEY } from '@/lib/session';
import type { ListParams } from '@/lib/use-server-list';

import type { VersionStatus } from './transitions';

export interface FilterOwner {
  id: string;
  username?: string;
  name?: string;
  email?: string;
}

type FilterResource = ResponseOf<typeof getFilterEndpoint>['data'];
type VersionResource = ResponseOf<typeof getFilterVersionEndpoint>['data'];

/** A filter as the server sends it (the contract's attributes) with its id, and its owner when included. */
export type Filter = FilterResource['attributes'] & { id: string; owner?: FilterOwner };

/** A filter version as the server sends it, with its id; `filter_class` null: the last one its code defines. */
export type FilterVersion = Omit<VersionResource['attributes'], 'status'> & { id: string; status: VersionStatus };

/** Filters belong to the signed-in user's data: dropped on logout. */
export const FILTERS_KEY = [USER_DATA_KEY, 'filters'] as const;

function toFilter(item: FilterResource, included: JsonApiResource[] = []): Filter {
  const a = item.attributes;
  const ownerRef = item.relationships?.owner?.data as { id?: string } | undefined;
  const owner = included.find((r) => r.type === 'user' && String(r.id) === String(ownerRef?.id ?? a.user_id));
  return {
    ...a,
    id: String(item.id),
    user_id: String(a.user_id),
    enabled_version: a.enabled_version === null || a.enabled_version === undefined ? null : String(a.enabled_version),
    latest_version: a.latest_version === null || a.latest_version === undefined ? null : String(a.latest_version),
    owner: owner ? { ...(owner.attributes as Omit<FilterOwner, 'id'>), id: String(owner.id) } : undefined,
  };
}

function toVersion(item: VersionResource): FilterVersion {
  // The contract's status is one of VERSION_STATUSES (a JSON Schema enum, typed as a string).
  return { ...item.attributes, id: String(item.id), status: item.attributes.status as VersionStatus };
}

const path = (filterId: string, rest = '') => `/filters/${encodeURIComponent(filterId)}${rest}`;
const paging = ({ page, perPage, sort }: ListParams) => ({ 'page[limit]': perPage, 'page[offset]': (page - 1) * perPage, sort });

export async function getFilter(filterId: string, signal?: AbortSignal): Promise<Filter> {
  const document = await apiGet<JsonApiDocument<FilterResource>>(path(filterId), undefined, signal);
  return toFilter(document.data);
}

/** GET /filters?include=owner: every filter the caller may see (all of them for an admin). */
export async function listFilters(params: ListParams, signal?: AbortSignal): Promise<{ filters: Filter[]; count: number }> {
  const document = await apiGet<JsonApiDocument<FilterResource[]>>('/filters', { include: 'owner', ...paging(params) }, signal);
  const filters = (document.data ?? []).map((item) => toFilter(item, document.included));
  return { filters, count: document.meta?.count ?? filters.length };
}

/** GET /users/{id}/filters: the user's own filters (meta.count). */
export async function listUserFilters(
  userId: string,
  params: ListParams,
  signal?: AbortSignal,
): Promise<{ filters: Filter[]; count: number }> {
  const document = await apiGet<JsonApiDocument<FilterResource[]>>(`/users/${encodeURIComponent(userId)}/filters`, paging(params), signal);
  const filters = (document.data ?? []).map((item) => toFilter(item));
  return { filters, count: document.meta?.count ?? filters.length };
}

/** POST /users/{id}/filters (name, description); the answer's data.id is the new filter. */
export async function createFilter(userId: string, attributes: { name: string; description: string }): Promise<Filter> {
  const response = await apiFetch(`/users/${encodeURIComponent(userId)}/filters`, {
    method: 'POST',
    body: { data: { type: 'filter', attributes } },
  });
  return toFilter(((await response.json()) as JsonApiDocument<FilterResource>).data);
}

/** PATCH /filters/{id} (public). */
export async function setFilterPublic(filterId: string, isPublic: boolean): Promise<Filter> {
  const response = await apiFetch(path(filterId), {
    method: 'PATCH',
    body: { data: { type: 'filter', id: filterId, attributes: { public: isPublic } } },
  });
  return toFilter(((await response.json()) as JsonApiDocument<FilterResource>).data);
}

/** GET /filters/{id}/versions, newest first, up to 100. */
export async function getVersions(filterId: string, signal?: AbortSignal): Promise<FilterVersion[]> {
  const document = await apiGet<JsonApiDocument<VersionResource[]>>(
    path(filterId, '/versions'),
    { sort: '-created_at', 'page[limit]': 100 },
    signal,
  );
  return (document.data ?? []).map(toVersion);
}

export async function getVersion(filterId: string, versionId: string, signal?: AbortSignal): Promise<FilterVersion> {
  const document = await apiGet<JsonApiDocument<VersionResource>>(
    path(filterId, `/versions/${encodeURIComponent(versionId)}`),
    undefined,
    signal,
  );
  return toVersion(document.data);
}

/** POST /filters/{id}/versions (filter id, code, comment and, when the code defines several, the filter class to run). */
export async function addVersion(
  filterId: string,
  attributes: { code: string; comment: string; filter_class?: string },
): Promise<FilterVersion> {
  const response = await apiFetch(path(filterId, '/versions'), {
    method: 'POST',
    body: { data: { type: 'filter_version', attributes, relationships: { filter: { data: { type: 'filter', id: filterId } } } } },
  });
  return toVersion(((await response.json()) as JsonApiDocument<VersionResource>).data);
}

/** PATCH /filters/{id}/versions/{versionId} (status plus feedback; admins only). */
export async function transitionVersion(
  filterId: string,
  versionId: string,
  status: VersionStatus,
  feedback: string,
): Promise<FilterVersion> {
  const attributes = feedback ? { status, feedback } : { status };
  const response = await apiFetch(path(filterId, `/versions/${encodeURIComponent(versionId)}`), {
    method: 'PATCH',
    body: { data: { type: 'filter_version', id: versionId, attributes } },
  });
  return toVersion(((await response.json()) as JsonApiDocument<VersionResource>).data);
}

export function useFilter(filterId: string) {
  return useQuery({ queryKey: [...FILTERS_KEY, 'one', filterId], queryFn: ({ signal }) => getFilter(filterId, signal), staleTime: 0 });
}

export function useVersions(filterId: string) {
  return useQuery({
    queryKey: [...FILTERS_KEY, 'versions', filterId],
    queryFn: ({ signal }) => getVersions(filterId, signal),
    staleTime: 0,
  });
}

/** One version by id, for a selected version that is not among the 100 listed. */
export function useVersion(filterId: string, versionId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: [...FILTERS_KEY, 'version', filterId, versionId],
    queryFn: ({ signal }) => getVersion(filterId, versionId ?? '', signal),
    enabled: enabled && versionId !== null,
  });
}

export function useUserFilters(userId: string | undefined, params: ListParams) {
  return useQuery({
    queryKey: [...FILTERS_KEY, 'user', userId, params],
    queryFn: ({ signal }) => listUserFilters(userId ?? '', params, signal),
    enabled: Boolean(userId),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useAllFilters(params: ListParams) {
  return useQuery({
    queryKey: [...FILTERS_KEY, 'all', params],
    queryFn: ({ signal }) => listFilters(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
