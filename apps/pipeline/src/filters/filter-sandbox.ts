import { randomUUID } from 'node:crypto';

import type { FilterTestDependency, FilterTestLocus, FilterTestReport } from '@antares/contract';
import type { LocusRow, Repositories } from '@antares/db';

import {
  chainDependencies,
  leftOf,
  loadDependencies,
  type LoadedDependency,
  namedDependency,
  runDependencies,
  unloadDependencies,
} from './filter-chain.ts';
import { alertPropertyLoader, locusInputsFor } from './locus-inputs.ts';
import { type FilterError, FilterSandboxPool, type LocusReport, missingSandboxPrerequisites } from './pool/index.ts';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from './sandbox-limits.ts';

export type CodeCheck = { ok: true; outputs: Record<string, unknown> } | { ok: false; message: string };

/** What the API server does with filter code in the sandbox: check it on submission, and dry-run it. */
export interface FilterSandbox {
  /** Loads the code (import, class, declarations, setup) and tells what it declares. `filterClass`:
   * the filter to load when the code defines several (default: the last one it defines). `files`: its
   * data files so far; while some it requires are missing, it is checked up to its declarations. */
  validate(code: string, filterClass?: string, files?: Record<string, Uint8Array>): Promise<CodeCheck>;
  /** Runs the code (with these data files) on these loci, as Level 2 would, and reports what it would do; stores nothing. */
  dryRun(code: string, loci: LocusRow[], filterClass?: string, files?: Record<string, Uint8Array>): Promise<FilterTestReport>;
}

/** A dry run stops when this many loci in a row time out: a filter hung on the first loci says so at once. */
const DRY_RUN_STOP_AFTER_TIMEOUTS = 2;

/**
 * The API server's own small sandbox pool (on uids apart from the pipeline's workers). Undefined
 * where the sandbox cannot run, with what is missing. Every job is bounded (load time, then the dry
 * run's budget), and the server lets each user hold one worker at a time, so with `dryRunWorkers`
 * workers, that many users minus one can run hostile code while another's dry run still finds a worker.
 */
export function createFilterSandbox(
  repos: Repositories,
  limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS,
): {
  sandbox?: FilterSandbox;
  close(): Promise<void>;
  missing: string[];
} {
  const missing = missingSandboxPrerequisites(limits.python);
  if (missing.length > 0) return { missing, close: async () => {} };
  const { dryRunBudgetMs, dryRunWorkers, ...workerLimits } = limits;
  const pool = new FilterSandboxPool({ ...workerLimits, maxWorkers: dryRunWorkers, slotOffset: 500 });
  const withLoaded = async <T>(
    code: string,
    filterClass: string | undefined,
    files: Record<string, Uint8Array>,
    use: (id: string, loaded: Awaited<ReturnType<FilterSandboxPool['load']>>) => Promise<T>,
    filesPending = false,
  ): Promise<T> => {
    const id = `sandbox-${randomUUID()}`;
    try {
      return await use(id, await pool.load(id, code, files, filterClass, { filesPending }));
    } finally {
      await pool.unload(id).catch(() => {});
    }
  };
  const sandbox: FilterSandbox = {
    validate: (code, filterClass, files = {}) =>
      withLoaded(
        code,
        filterClass,
        files,
        async (_id, result) => {
          if (result.ok && result.outputs) {
            // What it lacked is a fact of the moment, not a declaration: the version's files say it.
            const { files_missing: _missing, ...outputs } = result.outputs;
            return { ok: true, outputs: outputs as unknown as Record<string, unknown> };
          }
          const error = result.error;
          return {
            ok: false,
            message: error ? `${error.type}: ${error.message}\n${error.traceback}`.trim() : 'The filter could not be loaded',
          };
        },
        true,
      ),
    dryRun: (code, loci, filterClass, files = {}) =>
      withLoaded(code, filterClass, files, async (id, loaded) => {
        if (!loaded.ok || !loaded.outputs)
          return reportOf({
            loaded: false,
            loadError: loaded.error ?? unknownLoadError,
            stdout: loaded.stdout,
            reports: [],
            stoppedEarly: null,
          });
        const loadProperties = alertPropertyLoader(repos);
        const started = performance.now();
        // A chained filter: the enabled filters it reads from run first (ADR 0055), within the same budget.
        const dependencies = await loadDependencies(repos, pool, await chainDependencies(repos, loaded.outputs, code), id);
        let inputs = await locusInputsFor(repos, loci);
        let depReports: LocusReport[][] = [];
        try {
          const chained = await runDependencies(pool, dependencies, inputs, loadProperties, {
            budgetMs: dryRunBudgetMs,
            stopAfterTimeouts: DRY_RUN_STOP_AFTER_TIMEOUTS,
          });
          inputs = chained.loci;
          depReports = chained.reports;
        } finally {
          await unloadDependencies(pool, dependencies);
        }
        const batch = await pool.runBatch(id, inputs, loadProperties, {
          budgetMs: dependencies.length === 0 ? dryRunBudgetMs : leftOf(dryRunBudgetMs, started),
          stopAfterTimeouts: DRY_RUN_STOP_AFTER_TIMEOUTS,
        });
        const stoppedEarly =
          batch.stoppedEarly === undefined
            ? null
            : `Stopped early because ${batch.stoppedEarly}: ${inputs.length - batch.reports.length} of ${inputs.length} loci were not run`;
        return {
          ...reportOf({ loaded: true, outputs: loaded.outputs, stdout: loaded.stdout, reports: batch.reports, stoppedEarly }),
          dependencies: dependencies.map((d, i) => dependencyOf(d, depReports[i] ?? [])),
        };
      }),
  };
  return { missing, sandbox, close: () => pool.close() };
}

function dependencyOf(d: LoadedDependency, reports: LocusReport[]): FilterTestDependency {
  return {
    ...namedDependency(d.dependency),
    loaded: d.loaded.ok,
    load_error: d.loaded.ok ? null : (d.loaded.error ?? unknownLoadError),
    counts: {
      loci: reports.length,
      ok: reports.filter((r) => r.status === 'ok').length,
      skipped: reports.filter((r) => r.status === 'skipped').length,
      error: reports.filter((r) => r.status !== 'ok' && r.status !== 'skipped').length,
    },
  };
}

const unknownLoadError: FilterError = { type: 'LoadFailed', message: 'The filter could not be loaded', traceback: '' };

function reportOf(run: {
  loaded: boolean;
  loadError?: FilterError;
  outputs?: import('./pool/index.ts').FilterOutputs;
  stdout: string;
  reports: LocusReport[];
  stoppedEarly: string | null;
}): FilterTestReport {
  const loci: FilterTestLocus[] = run.reports.map((r) => ({
    locus_id: r.locus_id,
    status: r.status,
    skip_reason: r.skip_reason ?? null,
    new_tags: r.new_tags,
    new_properties: r.new_locus_properties,
    new_alert_properties: r.new_alert_properties,
    stdout: r.stdout,
    error: r.error ?? null,
    duration_ms: r.t * 1000,
  }));
  const times = loci
    .filter((l) => l.status === 'ok')
    .map((l) => l.duration_ms)
    .sort((a, b) => a - b);
  return {
    loaded: run.loaded,
    load_error: run.loadError ?? null,
    outputs: run.outputs
      ? {
          tags: run.outputs.tags.map((name) => ({ name })),
          locus_properties: run.outputs.locus_properties,
          alert_properties: run.outputs.alert_properties,
          class_name: run.outputs.class_name ?? null,
          filter_classes: run.outputs.filter_classes ?? [],
        }
      : null,
    stdout: run.stdout,
    loci,
    stopped_early: run.stoppedEarly,
    dependencies: [],
    timing: { p50_ms: percentile(times, 50), p90_ms: percentile(times, 90), p99_ms: percentile(times, 99) },
    counts: {
      loci: loci.length,
      ok: loci.filter((l) => l.status === 'ok').length,
      skipped: loci.filter((l) => l.status === 'skipped').length,
      error: loci.filter((l) => l.status !== 'ok' && l.status !== 'skipped').length,
      tagged: loci.filter((l) => l.new_tags.length > 0).length,
    },
  };
}

/** Nearest-rank percentile of sorted values; null for none. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
