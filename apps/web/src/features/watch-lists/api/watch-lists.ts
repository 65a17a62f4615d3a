import type {
  createWatchList as createEndpoint,
  getWatchList as getEndpoint,
  listWatchLists,
  ResponseOf,
} from '@antares/contract/endpoints';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiFetch, apiGet } from '@/lib/api-client';
import { USER_DATA_KEY } from '@/lib/session';
import type { ListParams } from '@/lib/use-server-list';

import type { WatchObjectInput } from './objects-csv';

type WatchListResource = ResponseOf<typeof getEndpoint>['data'];
type Attributes = WatchListResource['attributes'];

/** One object of a list (GET /watch_lists/{id}). */
export type WatchObject = NonNullable<Attributes['objects']>[number];

/**
 * A list as the contract describes it (`history_matched_at` null while the server matches it against the
 * stored alerts; `matched_loci` and `objects` only in the single-list answer), with its owner's id.
 */
export type WatchList = Attributes & { id: string; ownerId?: string };

export interface NewWatchList {
  name: string;
  description: string;
  slack_channel?: string;
  objects: WatchObjectInput[];
}

/** Watch lists belong to the signed-in user's data: dropped on logout. */
export const WATCH_LISTS_KEY = [USER_DATA_KEY, 'watch-lists'] as const;

function toWatchList(item: WatchListResource): WatchList {
  const owner = item.relationships?.owner?.data;
  return {
    ...item.attributes,
    id: String(item.id),
    slack_channel: item.attributes.slack_channel ?? null,
    history_matched_at: item.attributes.history_matched_at ?? null,
    object_count: item.attributes.object_count ?? item.attributes.objects?.length ?? 0,
    ownerId: owner?.id === undefined ? undefined : String(owner.id),
  };
}

const userPath = (userId: string) => `/users/${encodeURIComponent(userId)}/watch_lists`;
const listPath = (watchListId: string) => `/watch_lists/${encodeURIComponent(watchListId)}`;

/** GET /users/{id}/watch_lists: one page of the user's lists and their count. */
export async function getWatchLists(userId: string, { page, perPage, sort }: ListParams, signal?: AbortSignal) {
  const document = await apiGet<ResponseOf<typeof listWatchLists>>(
    userPath(userId),
    { 'page[limit]': perPage, 'page[offset]': (page - 1) * perPage, sort },
    signal,
  );
  const watchLists = (document.data ?? []).map(toWatchList);
  return { watchLists, count: document.meta?.count ?? watchLists.length };
}

export function useWatchLists(userId: string | undefined, params: ListParams) {
  return useQuery({
    queryKey: [...WATCH_LISTS_KEY, 'list', userId, params],
    queryFn: ({ signal }) => getWatchLists(userId!, params, signal),
    enabled: Boolean(userId),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** GET /watch_lists/{id}: the list with all its objects. */
export async function getWatchList(watchListId: string, signal?: AbortSignal): Promise<WatchList> {
  const document = await apiGet<ResponseOf<typeof getEndpoint>>(listPath(watchListId), undefined, signal);
  return toWatchList(document.data);
}

export function useWatchList(watchListId: string) {
  return useQuery({
    queryKey: [...WATCH_LISTS_KEY, 'detail', watchListId],
    queryFn: ({ signal }) => getWatchList(watchListId, signal),
  });
}

/** The history matching state of a list: when it was matched (null: still matching) and its loci. */
export interface MatchingState {
  history_matched_at: string | null;
  matched_loci: number;
}

/** While the server matches the list against the stored alerts, asked again this often (ms). */
export const HISTORY_POLL_MS = 2000;

/** GET /watch_lists/{id} with only the matching state (a list may hold 100,000 objects). */
export async function getMatchingState(watchListId: string, signal?: AbortSignal): Promise<MatchingState> {
  // Sparse fieldsets: only these two attributes come back.
  const document = await apiGet<{ data: { attributes: Partial<MatchingState> } }>(
    listPath(watchListId),
    { 'fields[watch_list]': 'history_matched_at,matched_loci' },
    signal,
  );
  return {
    history_matched_at: document.data.attributes.history_matched_at ?? null,
    matched_loci: document.data.attributes.matched_loci ?? 0,
  };
}

/** The matching state, asked again until the list is matched; starts from the detail's own answer. */
export function useMatchingState(watchListId: string, initial: MatchingState | undefined) {
  return useQuery({
    queryKey: [...WATCH_LISTS_KEY, 'matching', watchListId],
    queryFn: ({ signal }) => getMatchingState(watchListId, signal),
    enabled: initial !== undefined,
    initialData: initial,
    refetchInterval: (query) => (query.state.data?.history_matched_at === null ? HISTORY_POLL_MS : false),
  });
}

/** POST /users/{id}/watch_lists; an empty slack channel is left out. */
export async function createWatchList(userId: string, watchList: NewWatchList): Promise<WatchList> {
  const { slack_channel, ...rest } = watchList;
  const attributes = slack_channel ? { ...rest, slack_channel } : rest;
  const response = await apiFetch(userPath(userId), {
    method: 'POST',
    body: { data: { type: 'watch_list', attributes } },
  });
  const document = (await response.json()) as ResponseOf<typeof createEndpoint>;
  return toWatchList(document.data);
}

export async function deleteWatchList(watchListId: string): Promise<void> {
  await apiFetch(listPath(watchListId), { method: 'DELETE' });
}

/**
 * Deletes several lists at once (in parallel); resolves with the ids that could not be deleted and
 * the first failure.
 */
export async function deleteWatchLists(ids: readonly string[]): Promise<{ failed: string[]; error: unknown }> {
  const results = await Promise.allSettled(ids.map((id) => deleteWatchList(id)));
  const failed = ids.filter((_, i) => results[i].status === 'rejected');
  const firstFailure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  return { failed, error: firstFailure?.reason };
}
