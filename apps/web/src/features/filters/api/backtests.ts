import type { BacktestResults } from '@antares/contract';
import type { BodyOf, compareBacktests, createVersionBacktest, getBacktest, ResponseOf } from '@antares/contract/endpoints';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

import { apiFetch, apiGet, apiUrl } from '@/lib/api-client';
import { lociPath, type SearchFilter } from '@/lib/locus-query';

import { FILTERS_KEY } from './filters';

export type { BacktestResults };

type BacktestDocument = ResponseOf<typeof getBacktest>;
type BacktestAttributes = BacktestDocument['data']['attributes'];
/** A backtest as the server sends it, with its id; `results` typed as the pipeline builds them. */
export type Backtest = Omit<BacktestAttributes, 'results'> & { id: string; results: BacktestResults | null };
export type BacktestRequest = NonNullable<BodyOf<typeof createVersionBacktest>>;
export type BacktestComparison = ResponseOf<typeof compareBacktests>['data']['attributes'];

export const FINISHED_STATES: ReadonlySet<string> = new Set(['done', 'failed', 'cancelled']);
export const BACKTESTS_KEY = [...FILTERS_KEY, 'backtests'] as const;

function toBacktest(resource: { id: string; attributes: BacktestAttributes }): Backtest {
  return { ...resource.attributes, id: String(resource.id), results: resource.attributes.results as unknown as BacktestResults | null };
}

/** POST .../versions/{v}/backtests: queues a backtest of a saved version (202). */
export async function startVersionBacktest(filterId: string, versionId: string, attributes: BacktestRequest): Promise<Backtest> {
  const response = await apiFetch(`/filters/${encodeURIComponent(filterId)}/versions/${encodeURIComponent(versionId)}/backtests`, {
    method: 'POST',
    body: { data: { type: 'backtest', attributes } },
  });
  return toBacktest(((await response.json()) as BacktestDocument).data);
}

/** POST /filters/test/backtests: queues a backtest of unsaved code (a dry run's body: code, filter_class). */
export async function startCodeBacktest(code: string, filterClass: string, attributes: BacktestRequest): Promise<Backtest> {
  const chosen = filterClass.trim() === '' ? {} : { filter_class: filterClass.trim() };
  const response = await apiFetch('/filters/test/backtests', {
    method: 'POST',
    body: { data: { type: 'backtest', attributes: { code, ...chosen, ...attributes } } },
  });
  return toBacktest(((await response.json()) as BacktestDocument).data);
}

export async function fetchBacktest(id: string, signal?: AbortSignal): Promise<Backtest> {
  return toBacktest((await apiGet<BacktestDocument>(`/backtests/${encodeURIComponent(id)}`, undefined, signal)).data);
}

/** DELETE /backtests/{id}: a queued job ends at once, a running one after its current round. */
export async function cancelBacktest(id: string): Promise<Backtest> {
  const response = await apiFetch(`/backtests/${encodeURIComponent(id)}`, { method: 'DELETE' });
  return toBacktest(((await response.json()) as BacktestDocument).data);
}

async function listVersionBacktests(filterId: string, versionId: string, signal?: AbortSignal): Promise<Backtest[]> {
  const document = await apiGet<{ data: { id: string; attributes: BacktestAttributes }[] }>(
    `/filters/${encodeURIComponent(filterId)}/versions/${encodeURIComponent(versionId)}/backtests`,
    undefined,
    signal,
  );
  return document.data.map(toBacktest);
}

/** A version's backtests, newest first (none asked for unsaved code: versionId null). */
export function useVersionBacktests(filterId: string | null, versionId: string | null) {
  return useQuery({
    queryKey: [...BACKTESTS_KEY, filterId, versionId],
    queryFn: ({ signal }) => listVersionBacktests(filterId ?? '', versionId ?? '', signal),
    enabled: filterId !== null && versionId !== null,
  });
}

/** The finished backtests of every version of a filter, newest first, each with its version id. */
export function useFilterBacktests(filterId: string, versionIds: string[]): Backtest[] {
  return useQueries({
    queries: versionIds.map((versionId) => ({
      queryKey: [...BACKTESTS_KEY, filterId, versionId],
      queryFn: ({ signal }: { signal: AbortSignal }) => listVersionBacktests(filterId, versionId, signal),
    })),
    combine: (results) =>
      results
        .flatMap((r) => r.data ?? [])
        .filter((b) => b.state === 'done')
        .sort((a, b) => Number(b.id) - Number(a.id)),
  });
}

export async function compareTwo(first: string, second: string, signal?: AbortSignal): Promise<BacktestComparison> {
  const path = `/backtests/${encodeURIComponent(first)}/comparison/${encodeURIComponent(second)}`;
  return (await apiGet<ResponseOf<typeof compareBacktests>>(path, undefined, signal)).data.attributes;
}

/** The locus list link of loci a backtest tagged: `value` is an id, "id:tag", "a&b" or "a-b" (the backtest_id term). */
export function backtestLociPath(value: string, text: string): string {
  const filter: SearchFilter = { type: 'term', field: 'backtest_id', value, text };
  return lociPath([filter]);
}

const POLL_MS = 2000;

/**
 * A backtest kept up to date until it ends: its server-sent events (/events), or, when the stream
 * fails (a proxy that buffers, an expired session), GET every two seconds.
 */
export function useLiveBacktest(initial: Backtest | null): Backtest | null {
  const [backtest, setBacktest] = useState(initial);
  const [seen, setSeen] = useState(initial);
  if (initial !== seen) {
    setSeen(initial);
    setBacktest(initial);
  }
  const id = initial?.id;
  const live = initial !== null && !FINISHED_STATES.has(initial.state);
  useEffect(() => {
    if (!id || !live) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const update = (next: Backtest) => {
      if (stopped) return;
      setBacktest(next);
      if (FINISHED_STATES.has(next.state)) stop();
    };
    const poll = () => {
      fetchBacktest(id, controller.signal)
        .then(update)
        .catch(() => undefined)
        .finally(() => {
          if (!stopped) timer = setTimeout(poll, POLL_MS);
        });
    };
    const source = new EventSource(apiUrl(`/backtests/${encodeURIComponent(id)}/events`), { withCredentials: true });
    source.addEventListener('progress', (event) => {
      update(toBacktest((JSON.parse((event as MessageEvent<string>).data) as BacktestDocument).data));
    });
    source.onerror = () => {
      // The stream ends when the job does (the browser would reconnect): one GET tells which it was.
      source.close();
      if (!stopped && timer === undefined) poll();
    };
    function stop() {
      stopped = true;
      source.close();
      clearTimeout(timer);
      controller.abort();
    }
    return stop;
  }, [id, live]);
  return backtest;
}
