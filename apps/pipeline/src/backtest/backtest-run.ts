import type { Repositories } from '@antares/db';

import { type LoadedDependency, runDependencies } from '../filters/filter-chain.ts';
import { alertPropertyLoader, catalogObjectsOf, gravWaveMetadataOf } from '../filters/locus-inputs.ts';
import type { AlertForFilter, FilterSandboxPool, LocusForFilter } from '../filters/pool/index.ts';
import { type LocusOutcome, LocusReplay, type ReplayWindow } from './replay.ts';

/**
 * Loci whose inputs are read in one go (three statements). Large, because each read of the alerts scans
 * the cutout table once whatever the chunk's size (that scan was a quarter of a backtest's time at 100).
 */
const INPUT_CHUNK = 500;
/** Loci replayed side by side in each lane: each round sends the next step of each to the filter as one batch. */
const ACTIVE_LOCI_PER_LANE = 150;
/** Lanes of rounds taking turns at the worker (see replayLoci). */
const LANES = 2;
/** A filter timing out on this many steps in a row is hung: the backtest stops (as Level 2 would disable it). */
const STOP_AFTER_TIMEOUTS = 3;
/**
 * The caller hears of finished loci at most this often (and at the end): each report is a database
 * transaction (the job's progress and heartbeat), which once per round cost a tenth of the replay.
 */
const REPORT_EVERY_MS = 500;

/** Why a backtest stopped before its end, for its user. */
export class BacktestStopped extends Error {}

/** A backtest that used up its total time budget (ReplayLociOptions.timeBudgetMs). */
export class BacktestOverBudget extends BacktestStopped {
  constructor(readonly budgetMs: number) {
    super(
      `The backtest used up its time budget of ${budgetMs / 1000} s, so it stopped part way: its results are those of the loci it replayed`,
    );
  }
}

export interface ReplayLociOptions {
  window: ReplayWindow;
  /** The filters the replayed one reads from (a chain, ADR 0055), loaded: run before it at every step. */
  dependencies?: LoadedDependency[];
  /**
   * Called with the loci finished since its last call and the steps run so far, after the first round,
   * then at most every REPORT_EVERY_MS, and at the end; a true answer stops the run (cancelled, or the
   * server is stopping).
   */
  onLoci?: (finished: LocusOutcome[], stepsDone: number) => Promise<boolean>;
  /**
   * The whole replay's time, besides the per-locus timeout: each round's batch gets what is left, and
   * past it the replay throws BacktestOverBudget (the loci finished so far are reported first).
   */
  timeBudgetMs?: number;
  /** Asked before each round: true stops the run as a true answer of onLoci does (e.g. the job's lease was lost). */
  stopNow?: () => boolean;
}

/**
 * Replays loci through a filter already loaded in the pool under `filterKey` (ADR 0030). Loci run side
 * by side, each one step per round, so a round is one batch of many loci (what keeps the sandbox busy)
 * while each locus still goes through its alerts in time order, seeing what the filter gave it at the
 * earlier ones. Two lanes of rounds take turns: while the worker runs one lane's batch, this thread
 * builds the other's (the locus summaries at each step are most of the Node work), so the two overlap
 * on two cores. Reads only; returns the steps run and whether it was stopped.
 */
export async function replayLoci(
  repos: Repositories,
  pool: FilterSandboxPool,
  filterKey: string,
  locusIds: string[],
  options: ReplayLociOptions,
): Promise<{ steps: number; stopped: boolean }> {
  const source = new ReplaySource(repos, locusIds, options.window);
  const loadProperties = alertPropertyLoader(repos);
  let steps = 0;
  let timeoutsInARow = 0;
  let stopped = false;
  let halted = false;
  // The caller's saves, one at a time, in order; finished loci wait for the next one.
  let reporting = Promise.resolve(false);
  let unreported: LocusOutcome[] = [];
  let lastReport = -Infinity;
  const budgetMs = options.timeBudgetMs ?? Infinity;
  const deadline = performance.now() + budgetMs;
  const left = () => deadline - performance.now();
  const report = (finished: LocusOutcome[], now = false) => {
    unreported.push(...finished);
    if (!now && performance.now() - lastReport < REPORT_EVERY_MS) return reporting;
    lastReport = performance.now();
    const outcomes = unreported;
    unreported = [];
    const done = reporting.then(async (stop) => stop || ((await options.onLoci?.(outcomes, steps)) ?? false));
    reporting = done.catch(() => true);
    return done;
  };
  const lane = async () => {
    let active: LocusReplay[] = [];
    while (!halted) {
      if (options.stopNow?.()) {
        stopped = true;
        halted = true;
        return;
      }
      if (left() <= 0) {
        halted = true;
        throw new BacktestOverBudget(budgetMs);
      }
      const finished: LocusOutcome[] = [];
      if (active.length < ACTIVE_LOCI_PER_LANE)
        for (const replay of await source.take(ACTIVE_LOCI_PER_LANE - active.length)) {
          if (replay.done) finished.push(replay.outcome);
          else active.push(replay);
        }
      if (active.length > 0) {
        let inputs = active.map((r) => r.next());
        if (options.dependencies?.length) {
          const chained = await runDependencies(pool, options.dependencies, inputs, loadProperties, {
            stopAfterTimeouts: STOP_AFTER_TIMEOUTS,
            ...(budgetMs === Infinity ? {} : { budgetMs: Math.max(1, left()) }),
          });
          for (const reports of chained.reports) for (const [i, r] of reports.entries()) active[i].applyDependency(r);
          inputs = chained.loci;
        }
        const limits = {
          stopAfterTimeouts: Math.max(1, STOP_AFTER_TIMEOUTS - timeoutsInARow),
          ...(budgetMs === Infinity ? {} : { budgetMs: Math.max(1, left()) }),
        };
        const batch = await pool.runBatch(filterKey, inputs, loadProperties, limits);
        const changed: string[] = [];
        for (const [i, r] of batch.reports.entries()) {
          timeoutsInARow = r.status === 'timeout' ? timeoutsInARow + 1 : 0;
          const alertId = active[i].apply(r);
          if (alertId) changed.push(alertId);
        }
        steps += batch.reports.length;
        if (changed.length > 0) pool.invalidateAlerts(changed);
        if (batch.stoppedEarly !== undefined && left() <= 0) {
          halted = true;
          throw new BacktestOverBudget(budgetMs);
        }
        if (batch.stoppedEarly !== undefined || timeoutsInARow >= STOP_AFTER_TIMEOUTS) {
          halted = true;
          throw new BacktestStopped(
            `The filter timed out on ${STOP_AFTER_TIMEOUTS} alert-steps in a row (the last on locus ${batch.reports.at(-1)?.locus_id ?? '?'}): ` +
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
      // The job's heartbeat and progress, and the moment to hear a cancellation.
      if (await report(finished)) {
        stopped = true;
        halted = true;
      }
      if (active.length === 0 && source.exhausted) return;
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: LANES }, () => lane()));
  const failure = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
  // The loci and steps since the last report (kept even when the filter stopped the run, as each round's were).
  if ((!failure || failure.reason instanceof BacktestStopped) && (await report([], true))) stopped = true;
  if (failure) throw failure.reason;
  return { steps, stopped };
}

/** Loci to replay, their inputs read a chunk ahead of need; lanes take them in turn. */
class ReplaySource {
  private readonly chunks: string[][] = [];
  private ready: LocusReplay[] = [];
  private nextChunk = 0;
  private prefetch: Promise<LocusReplay[]> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly repos: Repositories,
    locusIds: string[],
    private readonly window: ReplayWindow,
  ) {
    for (let i = 0; i < locusIds.length; i += INPUT_CHUNK) this.chunks.push(locusIds.slice(i, i + INPUT_CHUNK));
    this.fetch();
  }

  get exhausted(): boolean {
    return this.ready.length === 0 && this.prefetch === undefined;
  }

  /** Up to `n` replays (fewer at the end); one caller at a time. */
  take(n: number): Promise<LocusReplay[]> {
    const taken = this.queue.then(async () => {
      while (this.ready.length < n && this.prefetch) {
        const loaded = await this.prefetch;
        this.fetch();
        this.ready.push(...loaded);
      }
      return this.ready.splice(0, n);
    });
    this.queue = taken.catch(() => {});
    return taken;
  }

  private fetch(): void {
    this.prefetch = this.nextChunk < this.chunks.length ? replaysOf(this.repos, this.chunks[this.nextChunk++], this.window) : undefined;
    this.prefetch?.catch(() => {}); // awaited in take()
  }
}

/**
 * The replays of some loci: every stored alert of each (oldest first, as Level 2 sends them) with its
 * summary properties, which alerts came as packets (with cutouts: a packet's history rows have none),
 * their catalog matches and GW notices. Three statements for the loci and alerts, one for the matches.
 */
async function replaysOf(repos: Repositories, locusIds: string[], window: ReplayWindow): Promise<LocusReplay[]> {
  const { loci, alerts, gravWaves } = await repos.backtests.replayInputs(locusIds);
  const catalogObjects = await catalogObjectsOf(repos, locusIds);
  const metadata = await gravWaveMetadataOf(repos, [...new Set(loci.flatMap((l) => l.grav_wave_events))]);
  const associations = new Map<string, NonNullable<AlertForFilter['grav_wave_events']>>();
  for (const g of gravWaves) {
    const own = associations.get(g.alert_id) ?? [];
    own.push({ gracedb_id: g.gracedb_id, contour_level: g.contour_level, contour_area: g.contour_area });
    associations.set(g.alert_id, own);
  }
  const byLocus = new Map<string, typeof alerts>();
  for (const alert of alerts) {
    const list = byLocus.get(alert.locus_id);
    if (list) list.push(alert);
    else byLocus.set(alert.locus_id, [alert]);
  }
  return loci.map((locus) => {
    const own = byLocus.get(locus.locus_id) ?? [];
    const input: LocusForFilter = {
      locus_id: locus.locus_id,
      ra: locus.ra,
      dec: locus.dec,
      properties: {},
      tags: [],
      alerts: own.map((a) => ({
        alert_id: a.alert_id,
        mjd: a.mjd,
        survey: a.survey,
        grav_wave_events: associations.get(a.alert_id) ?? [],
      })),
      grav_wave_events_metadata: Object.fromEntries(
        locus.grav_wave_events.filter((id) => metadata.has(id)).map((id) => [id, metadata.get(id)!]),
      ),
      catalog_objects: catalogObjects.get(locus.locus_id) ?? {},
    };
    const summaries = own.map((a) => ({ alert_id: a.alert_id, mjd: a.mjd, properties: a.summary }));
    const packets = own.filter((a) => a.has_cutouts).map((a) => a.alert_id);
    return new LocusReplay(input, summaries, window, packets.length > 0 ? new Set(packets) : undefined);
  });
}
