import path from 'node:path';

import { compileLocusSearch, migrate, openDatabase, Repositories } from '@antares/db';
import {
  type AlertPropertyLoader,
  type BatchResult,
  DEFAULT_SANDBOX_LIMITS,
  ensureShippedFilters,
  FilterSandboxPool,
  ingestFiles,
  Level2Stage,
  type LoadResult,
  type LocusForFilter,
  type RunLimits,
  type SandboxPoolOptions,
  SHIPPED_FILTERS,
} from '@antares/pipeline';

import { CpuMeter, workerMemoryLine } from './cpu-meter.ts';
import { argValue, benchSurvey, freshDatabase } from './ingest.ts';
import { BENCH_FILTERS, benchDataFiles, benchFilterCode } from './rubin-filters/index.ts';
import { percentile } from './stats.ts';

const VISIT_DATABASE = 'antares_bench_visit';
/** RTN-090: 30 s of filtering per visit of ~10,000 alerts; Rubin takes a visit every ~39 s. */
const LEVEL2_TARGET = 333;
const VISIT_TARGET_S = 39;

/** What the pool spent on each filter: wall time of its batches, time inside it, loci and passing loci. */
interface FilterCost {
  batchMs: number;
  inFilterMs: number[];
  loci: number;
  passed: number;
}

/**
 * The filter pool with the benchmark's instruments: each filter's data files given at load (as the
 * stored files will be, whoever loads it) and the time of each of its batches, end to end and inside it.
 */
class MeasuredPool extends FilterSandboxPool {
  readonly costs = new Map<string, FilterCost>();
  constructor(
    options: SandboxPoolOptions,
    private readonly filesOf: (code: string) => Record<string, Uint8Array>,
  ) {
    super(options);
  }

  override load(id: string, code: string, files: Record<string, Uint8Array | string> = {}, className?: string): Promise<LoadResult> {
    return super.load(id, code, Object.keys(files).length > 0 ? files : this.filesOf(code), className);
  }

  override async runBatch(id: string, loci: LocusForFilter[], load?: AlertPropertyLoader, limits?: RunLimits): Promise<BatchResult> {
    const started = performance.now();
    const result = await super.runBatch(id, loci, load, limits);
    let cost = this.costs.get(id);
    if (!cost) this.costs.set(id, (cost = { batchMs: 0, inFilterMs: [], loci: 0, passed: 0 }));
    cost.batchMs += performance.now() - started;
    for (const r of result.reports) {
      if (r.status === 'skipped') continue;
      cost.loci++;
      cost.inFilterMs.push(r.t * 1000);
      if (r.new_tags.length > 0) cost.passed++;
    }
    return result;
  }
}

/**
 * `npm run bench -- filters --survey rubin --filters N` (N from 1 to 20; default survey 7,700 objects
 * over 20 nights: ~10,000 full-size Rubin alerts, a visit's worth): the shipped filters and then those of
 * rubin-filters/ (numpy, scipy, astropy, data files), on the PostgreSQL server. Three timings: ingest
 * alone (Level 2 only records the batches' loci), Level 2 alone on those batches (its alerts/s, each
 * filter's time and yield), and the whole visit, ingest with Level 2 running on each batch as it is
 * stored (a fresh database).
 */
export async function benchFilterVisit(args: string[]): Promise<void> {
  const count = Number(argValue(args, '--filters'));
  const most = SHIPPED_FILTERS.length + BENCH_FILTERS.length;
  if (!Number.isInteger(count) || count < 1 || count > most) throw new Error(`--filters must be a whole number from 1 to ${most}`);
  const surveyArgs = [...args];
  if (argValue(args, '--objects') === undefined) surveyArgs.push('--objects', '7700');
  const files = (await benchSurvey(surveyArgs, 365)).filter((f) => path.basename(f).startsWith('lsst_'));
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const dataFiles = benchDataFiles();
  const extra = BENCH_FILTERS.slice(0, Math.max(0, count - SHIPPED_FILTERS.length));
  const shipped = SHIPPED_FILTERS.slice(0, Math.min(count, SHIPPED_FILTERS.length));
  const codes = new Set(extra.map(benchFilterCode));
  // Level 2's pool as `antares ingest` and the server make it (ANTARES_LEVEL2_WORKERS: one worker per
  // filter and two to spare; ANTARES_LEVEL2_ALERT_CACHE), unless told otherwise (ADRs 0057, 0063).
  const workers = Number(argValue(args, '--workers') ?? DEFAULT_SANDBOX_LIMITS.level2Workers);
  const alertCacheSize = Number(argValue(args, '--alert-cache') ?? DEFAULT_SANDBOX_LIMITS.level2AlertCache);
  if (!Number.isInteger(workers) || workers < 1 || workers > 30) throw new Error('--workers must be a whole number from 1 to 30');
  if (!Number.isInteger(alertCacheSize) || alertCacheSize < 1) throw new Error('--alert-cache must be a whole number >= 1');
  const options: SandboxPoolOptions = { maxWorkers: workers, alertCacheSize };
  const pool = new MeasuredPool(options, (code) => (codes.has(code) ? dataFiles : {}));
  try {
    // 1. Ingest alone; the batches' loci are kept for Level 2 alone.
    const batches: string[][] = [];
    const opened = await openDatabase({ databaseUrl: await freshDatabase(serverUrl, VISIT_DATABASE) });
    try {
      await migrate(opened.db);
      const repos = new Repositories(opened.db, 'postgres');
      await enableFilters(repos, pool, shipped, extra);
      let meter = await CpuMeter.start(serverUrl, VISIT_DATABASE);
      let started = performance.now();
      const stats = await ingestFiles(repos, files, { level2: { run: async (ids) => void batches.push(ids) } });
      const ingestS = (performance.now() - started) / 1000;
      console.log(
        `Rubin visit: ${stats.packetsRead} full-size packets (${files.length} night files), ${count} filters enabled, ` +
          `${workers} workers keeping ${alertCacheSize} alerts each`,
      );
      console.log(`  ingest alone: ${ingestS.toFixed(1)} s, ${(stats.packetsRead / ingestS).toFixed(0)} alerts/s`);
      console.log(`  ${await meter.line(stats.packetsRead)}`);

      // 2. Level 2 alone, batch by batch, on what ingest stored.
      const level2 = new Level2Stage(repos, pool);
      started = performance.now();
      await level2.refresh();
      console.log(`  ${level2.filterCount} filters loaded in ${((performance.now() - started) / 1000).toFixed(1)} s (before the visit)`);
      pool.costs.clear();
      meter = await CpuMeter.start(serverUrl, VISIT_DATABASE);
      started = performance.now();
      for (const ids of batches) await level2.run(ids);
      const level2S = (performance.now() - started) / 1000;
      console.log(
        `  Level 2 alone: ${level2.stats.lociRun} locus runs in ${level2S.toFixed(1)} s: ` +
          `${(stats.packetsRead / level2S).toFixed(0)} alerts/s (target >= ${LEVEL2_TARGET}), ${level2.stats.failures} failures`,
      );
      console.log(`  ${await meter.line(stats.packetsRead)}`);
      console.log(`  ${workerMemoryLine()}`);
      printCosts(pool, await namesByKey(repos), level2S, stats.packetsRead);
    } finally {
      await opened.close();
    }

    // 3. The whole visit: ingest with Level 2 on each batch as it is stored, as `antares ingest` does.
    const visit = await openDatabase({ databaseUrl: await freshDatabase(serverUrl, VISIT_DATABASE) });
    try {
      await migrate(visit.db);
      const repos = new Repositories(visit.db, 'postgres');
      await enableFilters(repos, pool, shipped, extra);
      const level2 = new Level2Stage(repos, pool);
      await level2.refresh();
      const meter = await CpuMeter.start(serverUrl, VISIT_DATABASE);
      const started = performance.now();
      const stats = await ingestFiles(repos, files, { level2 });
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `  whole visit (ingest + ${level2.filterCount} filters): ${seconds.toFixed(1)} s (target < ${VISIT_TARGET_S} s), ` +
          `${(stats.packetsRead / seconds).toFixed(0)} alerts/s, ${level2.stats.tagsAdded} tags, ${level2.stats.failures} failures`,
      );
      console.log(`  ${await meter.line(stats.packetsRead)}`);
      const counts: string[] = [];
      for (const tag of (await repos.tags.list({ sort: 'id', limit: 100, offset: 0 })).rows) {
        const search = compileLocusSearch({ query: { bool: { filter: { term: { tags: tag.tag_id } } } } });
        counts.push(`${tag.tag_id} ${(await repos.loci.countMatches(search)).count}`);
      }
      console.log(`  loci per tag: ${counts.join(', ')}`);
    } finally {
      await visit.close();
    }
  } finally {
    await pool.close();
  }
}

/** The shipped filters (seeded as `antares start` does) and the benchmark's, public and enabled. */
async function enableFilters(
  repos: Repositories,
  pool: FilterSandboxPool,
  shipped: typeof SHIPPED_FILTERS,
  extra: readonly string[],
): Promise<void> {
  await ensureShippedFilters(repos, { filters: shipped });
  const owner = (await repos.users.findByUsername('antares'))!;
  for (const [i, name] of extra.entries()) {
    const code = benchFilterCode(name);
    // Its outputs as the version records them, from a load with its files (the pool adds them).
    const loaded = await pool.load(`declare-${name}`, code);
    await pool.unload(`declare-${name}`);
    if (!loaded.ok || !loaded.outputs) throw new Error(`benchmark filter ${name} did not load: ${loaded.error?.message}`);
    const filter = (await repos.filters.create({
      user_id: owner.user_id,
      name: `bench_${name}`,
      description: `Benchmark filter ${name}`,
    }))!;
    await repos.filters.update(filter.filter_id, { public: true, priority: 100 + i });
    const version = await repos.filters.createVersion({
      filter_id: filter.filter_id,
      code,
      comment: 'benchmark',
      declared_outputs: { ...loaded.outputs },
    });
    await repos.filters.transition(filter.filter_id, version.filter_version_id, 'ENABLED', 'benchmark');
  }
}

async function namesByKey(repos: Repositories): Promise<Map<string, string>> {
  return new Map((await repos.filters.listForPipeline()).map((f) => [`filter-${f.filter_id}-v${f.version_id}`, f.name]));
}

/**
 * Where Level 2's time went, per filter: its batches end to end (the pool's encoding, the pipe, the
 * sandboxed worker's decoding and the filter), the filter's own time per locus, and the rest of that
 * (sandbox overhead: encoding and the round trip). Filters run at once on different chunks (Level 2's
 * wavefront), so the columns add up to more than the wall time.
 */
function printCosts(pool: MeasuredPool, names: Map<string, string>, wallS: number, alerts: number): void {
  let batchMs = 0;
  let filterMs = 0;
  console.log('  per filter: loci run, passed per 10,000 alerts, in the filter (total, p50, p99 per locus), batches end to end, overhead');
  for (const [key, c] of pool.costs) {
    const inFilter = c.inFilterMs.reduce((s, t) => s + t, 0);
    batchMs += c.batchMs;
    filterMs += inFilter;
    console.log(
      `    ${(names.get(key) ?? key).padEnd(30)} ${String(c.loci).padStart(6)} loci, ${((c.passed / alerts) * 10_000).toFixed(0).padStart(5)} /10k, ` +
        `filter ${(inFilter / 1000).toFixed(2)} s (p50 ${ms(percentile(c.inFilterMs, 50))}, p99 ${ms(percentile(c.inFilterMs, 99))}), ` +
        `batches ${(c.batchMs / 1000).toFixed(2)} s, overhead ${((c.batchMs - inFilter) / 1000).toFixed(2)} s`,
    );
  }
  console.log(
    `  all filters: ${(filterMs / 1000).toFixed(1)} s in the filters, ${((batchMs - filterMs) / 1000).toFixed(1)} s sandbox overhead ` +
      `(encoding, pipes, decoding), ${(batchMs / 1000).toFixed(1)} s of batches over ${wallS.toFixed(1)} s of Level 2`,
  );
}

const ms = (t: number | undefined) => (t === undefined ? '-' : `${t.toFixed(3)} ms`);
