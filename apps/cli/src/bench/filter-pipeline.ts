import path from 'node:path';

import { compileLocusSearch, migrate, openDatabase, Repositories } from '@antares/db';
import { ensureShippedFilters, FilterSandboxPool, ingestFiles, Level2Stage } from '@antares/pipeline';

import { argValue, benchSurvey, freshDatabase } from './ingest.ts';

/**
 * Pipeline throughput on the PostgreSQL server with the shipped filters enabled: the ingest benchmark's
 * simulated survey, with Level 2 running every enabled filter on every updated locus. `--survey rubin`
 * takes only its Rubin packets, with a year of history, as `bench ingest --survey rubin` does.
 */
export async function benchFilterPipeline(args: string[]): Promise<void> {
  const survey = argValue(args, '--survey') ?? 'all';
  if (survey !== 'all' && survey !== 'rubin') throw new Error(`--survey must be all or rubin, not ${survey}`);
  const all = await benchSurvey(args, survey === 'rubin' ? 365 : undefined);
  const files = survey === 'rubin' ? all.filter((f) => path.basename(f).startsWith('lsst_')) : all;
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const database = await openDatabase({ databaseUrl: await freshDatabase(serverUrl, 'antares_bench_filters') });
  const pool = new FilterSandboxPool({ maxWorkers: 8 });
  try {
    await migrate(database.db);
    const repos = new Repositories(database.db, 'postgres');
    await ensureShippedFilters(repos);
    const level2 = new Level2Stage(repos, pool);
    await level2.refresh();
    const started = performance.now();
    const stats = await ingestFiles(repos, files, { level2 });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `Pipeline with ${level2.filterCount} shipped filters on PostgreSQL: ${stats.packetsRead} packets, ${level2.stats.lociRun} locus runs, ` +
        `${level2.stats.tagsAdded} tags, ${level2.stats.failures} filter failures in ${seconds.toFixed(1)} s: ` +
        `${(stats.packetsRead / seconds).toFixed(0)} alerts/s (target >= 500)`,
    );
    const counts: string[] = [];
    for (const tag of (await repos.tags.list({ sort: 'id', limit: 100, offset: 0 })).rows) {
      const search = compileLocusSearch({ query: { bool: { filter: { term: { tags: tag.tag_id } } } } });
      counts.push(`${tag.tag_id} ${(await repos.loci.countMatches(search)).count}`);
    }
    console.log(`  loci per tag: ${counts.join(', ')}`);
  } finally {
    await pool.close();
    await database.close();
  }
}
