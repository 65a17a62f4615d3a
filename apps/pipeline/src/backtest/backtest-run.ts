import type { Repositories } from '@antares/db';

import { alertPropertyLoader, locusInputsFor } from '../filters/locus-inputs.ts';
import type { FilterSandboxPool } from '../filters/pool/index.ts';
import type { LocusAlert } from '../stages/locus-properties.ts';
import { type LocusOutcome, LocusReplay, type ReplayWindow } from './replay.ts';

/** Loci whose inputs are read in one go (one query for their alerts, one for their summaries). */
const INPUT_CHUNK = 100;
/** Loci replayed side by side: each round sends the next step of each to the filter as one batch. */
const ACTIVE_LOCI = 250;
/** A filter timing out on this many steps in a row is hung: the backtest stops (as Level 2 would disable it). */
const STOP_AFTER_TIMEOUTS = 3;

/** Why a backtest stopped before its end, for its user. */
export class BacktestStopped extends Error {}

export interface ReplayLociOptions {
  window: ReplayWindow;
  /**
   * Called after every round with the loci it finished and the steps run so far; a true answer stops
   * the run (cancelled, or the server is stopping).
   */
  onLoci?: (finished: LocusOutcome[], stepsDone: number) => Promise<boolean>;
}

/**
 * Replays loci through a filter already loaded in the pool under `filterKey` (ADR 0030). Loci run side
 * by side, each one step per round, so a round is one batch of up to ACTIVE_LOCI loci (what keeps
 * the sandbox busy) while each locus still goes through its alerts in time order, seeing what the
 * filter gave it at the earlier ones. Reads only; returns the steps run and whether it was stopped.
 */
export async function replayLoci(
  repos: Repositories,
  pool: FilterSandboxPool,
  filterKey: string,
  locusIds: string[],
  options: ReplayLociOptions,
): Promise<{ steps: number; stopped: boolean }> {
  const chunks: string[][] = [];
  for (let i = 0; i < locusIds.length; i += INPUT_CHUNK) chunks.push(locusIds.slice(i, i + INPUT_CHUNK));
  const loadProperties = alertPropertyLoader(repos);
  let nextChunk = 0;
  let prefetch: Promise<LocusReplay[]> | undefined;
  const fetchNext = () => {
    prefetch = nextChunk < chunks.length ? replaysOf(repos, chunks[nextChunk++], options.window) : undefined;
    prefetch?.catch(() => {}); // awaited when needed
  };
  fetchNext();
  let active: LocusReplay[] = [];
  let steps = 0;
  let timeoutsInARow = 0;
  for (;;) {
    const finished: LocusOutcome[] = [];
    while (active.length < ACTIVE_LOCI && prefetch) {
      const loaded = await prefetch;
      fetchNext();
      for (const replay of loaded) {
        if (replay.done) finished.push(replay.outcome);
        else active.push(replay);
      }
    }
    if (active.length > 0) {
      const inputs = active.map((r) => r.next());
      const batch = await pool.runBatch(filterKey, inputs, loadProperties, { stopAfterTimeouts: STOP_AFTER_TIMEOUTS - timeoutsInARow });
      const changed: string[] = [];
      for (const [i, report] of batch.reports.entries()) {
        timeoutsInARow = report.status === 'timeout' ? timeoutsInARow + 1 : 0;
        const alertId = active[i].apply(report);
        if (alertId) changed.push(alertId);
      }
      steps += batch.reports.length;
      if (changed.length > 0) pool.invalidateAlerts(changed);
      if (batch.stoppedEarly !== undefined || timeoutsInARow >= STOP_AFTER_TIMEOUTS) {
        const last = batch.reports.at(-1);
        throw new BacktestStopped(
          `The filter timed out on ${STOP_AFTER_TIMEOUTS} alert-steps in a row (the last on locus ${last?.locus_id ?? '?'}): ` +
            `it hangs, so the backtest stopped (Level 2 would disable it)`,
        );
      }
      const still: LocusReplay[] = [];
      for (const replay of active) {
        if (replay.done) finished.push(replay.outcome);
        else still.push(replay);
      }
      active = still;
    }
    // Every round: the job's heartbeat and progress, and the moment to hear a cancellation.
    const stop = await options.onLoci?.(finished, steps);
    if (active.length === 0 && !prefetch) return { steps, stopped: false };
    if (stop) return { steps, stopped: true };
  }
}

/**
 * The replays of some loci: their Level 2 inputs with every stored alert, the alerts' summaries, and
 * which alerts came as packets (with cutouts: a packet's history rows have none).
 */
async function replaysOf(repos: Repositories, locusIds: string[], window: ReplayWindow): Promise<LocusReplay[]> {
  const loci = await repos.loci.findMany(locusIds);
  const [inputs, summaries, withCutouts] = await Promise.all([
    locusInputsFor(repos, loci),
    repos.alerts.listSummariesByLoci(locusIds),
    repos.thumbnails.alertIdsWithThumbnails(locusIds),
  ]);
  const byId = new Map<string, LocusAlert>(summaries.map((s) => [s.alert_id, s]));
  const triggers = new Set(withCutouts);
  return inputs.map(
    (input) =>
      new LocusReplay(
        input,
        input.alerts.map((a) => byId.get(a.alert_id) ?? { alert_id: a.alert_id, mjd: a.mjd, properties: {} }),
        window,
        input.alerts.some((a) => triggers.has(a.alert_id)) ? triggers : undefined,
      ),
  );
}
