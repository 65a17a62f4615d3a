// Backtest jobs in the background (issue #19 pt 2, ADR 0031): queued in the database, run a few at a
// time in a pool of their own whose workers run at the lowest CPU priority, progress saved as loci
// finish, resumed after a restart.
import { DEFAULT_FILTER_BUDGET, type FilterBudgetLimits } from '@antares/contract';
import {
  type BacktestJobRow,
  compileLocusSearch,
  isConnectionLost,
  type JsonObject,
  type Repositories,
  retryOnConnectionLoss,
} from '@antares/db';

import {
  chainDependencies,
  loadDependencies,
  type LoadedDependency,
  namedDependency,
  unloadDependencies,
} from '../filters/filter-chain.ts';
import { filesOfFilter, filesOfVersion } from '../filters/filter-files.ts';
import { LEVEL2_MIN_MEASUREMENTS } from '../filters/level2.ts';
import { FilterSandboxPool } from '../filters/pool/index.ts';
import { DEFAULT_WORKER_LIMITS, type WorkerLimits } from '../filters/sandbox-limits.ts';
import { BacktestStopped, replayLoci } from './backtest-run.ts';
import type { LocusOutcome } from './replay.ts';
import { aggregateResults } from './results.ts';

/** What a job was asked to do (backtest_job.params). */
export interface BacktestParams {
  from_mjd: number;
  to_mjd: number;
  /** A /v1/loci elasticsearch_query document ({"query": ...}), or null for all loci. */
  search: unknown;
  max_loci: number;
  granularity: 'alert' | 'night';
}

export interface BacktestRunnerOptions {
  /** Jobs run at once, each with one sandbox worker (the bounded share of the machine). */
  workers?: number;
  /** Days a finished job and its results are kept. */
  retentionDays?: number;
  limits?: Partial<WorkerLimits>;
  /** The workers' nice value: 19, so Level 2's workers get the CPU first. */
  niceness?: number;
  /** Where the pool's sandbox uids start (apart from Level 2's and the dry runs'). */
  slotOffset?: number;
  /** A running job without a heartbeat for this long belongs to a runner that stopped. */
  staleSeconds?: number;
  /** Restarts a job survives; at the next it fails with the reason. */
  maxResumes?: number;
  pollMs?: number;
  /** Level 2's budget and yields, which the report's projection is judged against (ADR 0056). */
  budget?: FilterBudgetLimits;
  /**
   * A job's total running time, each time it is taken up, besides the per-locus timeout: past it the
   * job stops after its round and fails with the reason, keeping the loci it replayed (ADR 0062).
   */
  timeBudgetMs?: number;
  /** How often a running job's heartbeat is written, whatever its rounds take (default: a third of staleSeconds). */
  heartbeatMs?: number;
}

/** Workers a job may hold: its filter and up to two it reads from; a longer chain restarts workers between rounds. */
const WORKERS_PER_JOB = 3;

export type BacktestEvent = { backtest_id: number; state: string; loci_done: number; loci_total: number | null; steps_done: number };

/** Runs queued backtests; `wake()` after queuing one, `close()` at shutdown (running jobs resume at the next start). */
export class BacktestRunner {
  private readonly pool: FilterSandboxPool;
  private readonly o: Required<Omit<BacktestRunnerOptions, 'limits' | 'budget'>>;
  private readonly budget: FilterBudgetLimits;
  private readonly running = new Map<number, Promise<void>>();
  private readonly listeners = new Set<(event: BacktestEvent) => void>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private closing = false;
  private started = false;
  private lastCleanup = 0;

  constructor(
    private readonly repos: Repositories,
    options: BacktestRunnerOptions = {},
  ) {
    this.o = {
      workers: 1,
      retentionDays: 7,
      niceness: 19,
      slotOffset: 600,
      staleSeconds: 30,
      maxResumes: 3,
      pollMs: 2000,
      timeBudgetMs: 3_600_000,
      heartbeatMs: ((options.staleSeconds ?? 30) * 1000) / 3,
      ...Object.fromEntries(Object.entries(options).filter(([k, v]) => k !== 'limits' && k !== 'budget' && v !== undefined)),
    } as Required<Omit<BacktestRunnerOptions, 'limits' | 'budget'>>;
    this.budget = options.budget ?? DEFAULT_FILTER_BUDGET;
    this.pool = new FilterSandboxPool({
      ...DEFAULT_WORKER_LIMITS,
      ...options.limits,
      // A chained filter's job also holds the filters it reads from (ADR 0055), which take turns with it
      // (never two of a job's workers busy at once); without room for them every round would restart one.
      maxWorkers: this.o.workers * WORKERS_PER_JOB,
      slotOffset: this.o.slotOffset,
      niceness: this.o.niceness,
    });
  }

  get retentionDays(): number {
    return this.o.retentionDays;
  }

  /** Takes up jobs a stopped server left running, then polls for queued ones (once; later calls do nothing). */
  start(): void {
    if (this.started || this.closing) return;
    this.started = true;
    const tick = () => {
      this.wake();
      this.timer = setTimeout(tick, this.o.pollMs);
      this.timer.unref();
    };
    tick();
  }

  /** Looks for queued jobs now (a job was just queued or finished). */
  wake(): void {
    if (this.closing || this.polling) return;
    this.polling = this.poll()
      .catch(() => {}) // the next tick tries again
      .finally(() => (this.polling = undefined));
  }

  /** Progress events of every job (the API's server-sent events). */
  subscribe(listener: (event: BacktestEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops taking jobs and ends the running ones where they are: they stay `running` and resume at the next start. */
  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.timer);
    await this.polling;
    await Promise.all(this.running.values());
    await this.pool.close();
  }

  private async poll(): Promise<void> {
    if (Date.now() - this.lastCleanup > 3_600_000) {
      this.lastCleanup = Date.now();
      await this.repos.backtests.deleteExpired();
    }
    const recovered = await this.repos.backtests.recoverStale(this.o.staleSeconds, this.o.maxResumes);
    for (const id of recovered.failed) await this.emit(id);
    while (!this.closing && this.running.size < this.o.workers) {
      const job = await this.repos.backtests.claimNext();
      if (!job) return;
      const run = this.execute(job).finally(() => {
        this.running.delete(job.backtest_id);
        this.wake();
      });
      this.running.set(job.backtest_id, run);
    }
  }

  private async emit(id: number): Promise<void> {
    if (this.listeners.size === 0) return;
    const job = await this.repos.backtests.findById(id);
    if (!job) return;
    const event = { backtest_id: id, state: job.state, loci_done: job.loci_done, loci_total: job.loci_total, steps_done: job.steps_done };
    for (const listener of this.listeners) listener(event);
  }

  private async execute(job: BacktestJobRow): Promise<void> {
    const id = job.backtest_id;
    // The lease this runner holds the job under (BacktestRepository.claimNext): every write checks it.
    const lease = job.resumes;
    const key = `backtest-${id}`;
    const params = job.params as unknown as BacktestParams;
    const window = { fromMjd: params.from_mjd, toMjd: params.to_mjd, granularity: params.granularity };
    let dependencies: LoadedDependency[] = [];
    // The heartbeat on a timer of its own: a round of a slow filter can outlast staleSeconds, and a job
    // whose heartbeat goes stale is taken up by another runner. A lost lease stops this run at once.
    let lost = false;
    let cancelled = false;
    const beat = setInterval(() => {
      void this.repos.backtests
        .heartbeat(id, lease)
        .then((state) => {
          lost ||= state === 'lost';
          cancelled ||= state === 'cancel';
        })
        .catch(() => {}); // the next beat tries again
    }, this.o.heartbeatMs);
    beat.unref();
    const finish = async (state: 'done' | 'failed' | 'cancelled', error?: string) => {
      if (lost) return;
      const results = { ...(await this.results(job, params)), dependencies: dependencies.map(dependencyOf) };
      await this.repos.backtests.finish(id, state, this.o.retentionDays, { error, results: results as unknown as JsonObject }, lease);
      await this.emit(id);
    };
    try {
      const search = compileLocusSearch(params.search ?? undefined);
      const ids = await this.repos.backtests.selectLoci(search, window, LEVEL2_MIN_MEASUREMENTS, params.max_loci);
      const done = await this.repos.backtests.doneLoci(id);
      const todo = ids.filter((locusId) => !done.has(locusId));
      let lociDone = done.size;
      const stepsBefore = job.steps_done;
      if (await this.repos.backtests.progress(id, { loci_total: ids.length, loci_done: lociDone, steps_done: stepsBefore }, lease)) {
        lost = (await this.repos.backtests.heartbeat(id, lease)) === 'lost';
        cancelled = !lost;
      }
      if (lost) return;
      await this.emit(id);
      // A version runs with its own files; unsaved code for a filter, with the filter's files now (ADR 0053).
      const files =
        job.filter_version_id !== null
          ? await filesOfVersion(this.repos, job.filter_version_id)
          : job.filter_id !== null
            ? await filesOfFilter(this.repos, job.filter_id)
            : {};
      const loaded = await this.pool.load(key, job.code, files, job.filter_class ?? undefined);
      if (!loaded.ok) {
        const e = loaded.error;
        return await finish('failed', `The filter did not load: ${e ? `${e.type}: ${e.message}\n${e.traceback}`.trim() : 'unknown error'}`);
      }
      // A chained filter: the enabled filters it reads from replay before it at every step (ADR 0055).
      dependencies = await loadDependencies(this.repos, this.pool, await chainDependencies(this.repos, loaded.outputs, job.code), key);
      const { stopped } = await replayLoci(this.repos, this.pool, key, todo, {
        window,
        dependencies,
        timeBudgetMs: this.o.timeBudgetMs,
        onLoci: async (finished, steps) => {
          lociDone += finished.length;
          const stop = await this.repos.backtests.saveLoci(
            id,
            finished.map(recordOf),
            { loci_done: lociDone, steps_done: stepsBefore + steps },
            lease,
          );
          if (stop && !lost && !cancelled) lost = (await this.repos.backtests.heartbeat(id, lease)) === 'lost';
          cancelled ||= stop && !lost;
          if (!lost) await this.emit(id);
          return cancelled || lost || this.closing;
        },
        stopNow: () => cancelled || lost || this.closing,
      });
      if (lost) return;
      // The server is stopping: resumed at the next start.
      if (stopped && !cancelled) return await this.repos.backtests.requeue(id, lease);
      await finish(cancelled ? 'cancelled' : 'done', cancelled ? 'Cancelled' : undefined);
    } catch (e) {
      if (lost) return;
      if (this.closing && !(e instanceof BacktestStopped)) return await this.repos.backtests.requeue(id, lease).catch(() => {});
      // A lost database connection is no fault of the job: it is queued again, to resume from the loci it
      // saved once the database is back (ADR 0059). Should that fail too, its heartbeat goes stale and
      // recoverStale takes it up.
      if (isConnectionLost(e)) return await retryOnConnectionLoss(() => this.repos.backtests.requeue(id, lease)).catch(() => {});
      await finish('failed', e instanceof Error ? e.message : String(e)).catch(() => {});
    } finally {
      clearInterval(beat);
      await this.pool.unload(key).catch(() => {});
      await unloadDependencies(this.pool, dependencies);
    }
  }

  private async results(job: BacktestJobRow, params: BacktestParams) {
    const outcomes = (await this.repos.backtests.outcomes(job.backtest_id)).map((r) => r.outcome as unknown as LocusOutcome);
    const window = { fromMjd: params.from_mjd, toMjd: params.to_mjd };
    const [lociMatched, alertsLastDay, enabled, filter] = await Promise.all([
      this.repos.backtests.countLoci(compileLocusSearch(params.search ?? undefined), window, LEVEL2_MIN_MEASUREMENTS).catch(() => 0),
      this.repos.backtests.alertsStoredSince(24),
      this.repos.filters.listForPipeline(),
      job.filter_id === null ? undefined : this.repos.filters.findById(job.filter_id),
    ]);
    // The filters that would share the budget: the enabled ones, and this one if it is not among them.
    const enabledFilters = enabled.length + (enabled.some((f) => f.filter_id === job.filter_id) ? 0 : 1);
    const budget = { limits: this.budget, filterName: filter?.name ?? '', enabledFilters };
    return aggregateResults(outcomes, { lociMatched, alertsLastDay, budget });
  }
}

function dependencyOf(d: LoadedDependency) {
  const e = d.loaded.error;
  return {
    ...namedDependency(d.dependency),
    loaded: d.loaded.ok,
    load_error: d.loaded.ok ? null : e ? `${e.type}: ${e.message}` : 'unknown error',
  };
}

function recordOf(o: LocusOutcome) {
  return { locus_id: o.locus_id, tags: o.tags, outcome: o as unknown as JsonObject };
}
