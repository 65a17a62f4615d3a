import path from 'node:path';

import { compileLocusSearch, migrate, openDatabase, Repositories } from '@antares/db';
import { ensureShippedFilters, FilterSandboxPool, ingestFiles, type IngestStats, Level2Stage, type Level2Stats } from '@antares/pipeline';

import { CpuMeter } from './cpu-meter.ts';
import { argValue, benchSurvey, freshDatabase } from './ingest.ts';

const FILTERS_DATABASE = 'antares_bench_filters';

/**
 * Pipeline throughput on the PostgreSQL server with the shipped filters enabled: the ingest benchmark's
 * simulated survey, with Level 2 running every enabled filter on every updated locus. `--survey rubin`
 * takes only its Rubin packets, with a year of history, as `bench ingest --survey rubin` does, and also
 * times the nights after the first `--warm-nights` (default 5) once those are stored and their loci
 * filtered, as a running broker sees them (bench ingest's line of the same name). Each run is followed by
 * its CPU line, which also counts the sandbox's worker processes (Python under bubblewrap).
 */
export async function benchFilterPipeline(args: string[]): Promise<void> {
  const survey = argValue(args, '--survey') ?? 'all';
  if (survey !== 'all' && survey !== 'rubin') throw new Error(`--survey must be all or rubin, not ${survey}`);
  if (argValue(args, '--filters') !== undefined) {
    if (survey !== 'rubin') throw new Error('--filters goes with --survey rubin');
    return (await import('./filter-visit.ts')).benchFilterVisit(args);
  }
  const all = await benchSurvey(args, survey === 'rubin' ? 365 : undefined);
  const files = survey === 'rubin' ? all.filter((f) => path.basename(f).startsWith('lsst_')) : all;
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const warmNights = Number(argValue(args, '--warm-nights') ?? 5);
  if (survey === 'rubin' && (!Number.isInteger(warmNights) || warmNights < 1 || warmNights >= files.length))
    throw new Error(`--warm-nights must be a whole number from 1 to ${files.length - 1}`);
  await withShippedFilters(serverUrl, async (repos, level2) => {
    const meter = await CpuMeter.start(serverUrl, FILTERS_DATABASE);
    const started = performance.now();
    const stats = await ingestFiles(repos, files, { level2 });
    report('', level2.filterCount, level2.stats, stats, (performance.now() - started) / 1000);
    console.log(await meter.line(stats.packetsRead));
    const counts: string[] = [];
    for (const tag of (await repos.tags.list({ sort: 'id', limit: 100, offset: 0 })).rows) {
      const search = compileLocusSearch({ query: { bool: { filter: { term: { tags: tag.tag_id } } } } });
      counts.push(`${tag.tag_id} ${(await repos.loci.countMatches(search)).count}`);
    }
    console.log(`  loci per tag: ${counts.join(', ')}`);
  });
  if (survey !== 'rubin') return;
  await withShippedFilters(serverUrl, async (repos, level2) => {
    await ingestFiles(repos, files.slice(0, warmNights), { level2 });
    const before = { ...level2.stats };
    const meter = await CpuMeter.start(serverUrl, FILTERS_DATABASE);
    const started = performance.now();
    const stats = await ingestFiles(repos, files.slice(warmNights), { level2 });
    const seconds = (performance.now() - started) / 1000;
    const after = level2.stats;
    const runs = {
      lociRun: after.lociRun - before.lociRun,
      tagsAdded: after.tagsAdded - before.tagsAdded,
      failures: after.failures - before.failures,
    };
    report(`, after ${warmNights} nights`, level2.filterCount, runs, stats, seconds);
    console.log(await meter.line(stats.packetsRead));
  });
}

/** A fresh database with the shipped filters enabled and a Level 2 stage (its own worker pool) running them. */
async function withShippedFilters(serverUrl: string, work: (repos: Repositories, level2: Level2Stage) => Promise<void>): Promise<void> {
  const database = await openDatabase({ databaseUrl: await freshDatabase(serverUrl, FILTERS_DATABASE) });
  const pool = new FilterSandboxPool({ maxWorkers: 8 });
  try {
    await migrate(database.db);
    const repos = new Repositories(database.db, 'postgres');
    await ensureShippedFilters(repos);
    const level2 = new Level2Stage(repos, pool);
    await level2.refresh();
    await work(repos, level2);
  } finally {
    await pool.close();
    await database.close();
  }
}

function report(
  label: string,
  filterCount: number,
  { lociRun, tagsAdded, failures }: Pick<Level2Stats, 'lociRun' | 'tagsAdded' | 'failures'>,
  stats: IngestStats,
  seconds: number,
): void {
  console.log(
    `Pipeline with ${filterCount} shipped filters on PostgreSQL${label}: ${stats.packetsRead} packets, ${lociRun} locus runs, ` +
      `${tagsAdded} tags, ${failures} filter failures in ${seconds.toFixed(1)} s: ` +
      `${(stats.packetsRead / seconds).toFixed(0)} alerts/s (target >= 500)`,
  );
}
