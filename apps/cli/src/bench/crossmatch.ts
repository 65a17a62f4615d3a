import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { randomGenerator } from '@antares/astro/test-random';
import { migrate, openDatabase, Repositories } from '@antares/db';
import { importCatalog, ingestFiles } from '@antares/pipeline';

import { argValue, benchSurvey, freshDatabase } from './ingest.ts';

/**
 * `npm run bench -- crossmatch [--rows N]`: import speed of an N-row (1,000,000) point-source catalog
 * on the PostgreSQL server, and the cross-match cost per alert: the bench survey ingested without and
 * with the catalog loaded (target < 1 ms per alert).
 */
export async function benchCrossmatch(args: string[]): Promise<void> {
  const rows = Number(argValue(args, '--rows') ?? 1_000_000);
  const files = await benchSurvey(args);
  const csvDir = mkdtempSync(path.join(os.tmpdir(), 'antares-bench-catalog-'));
  const csv = path.join(csvDir, 'catalog.csv');
  const random = randomGenerator(5);
  const lines = ['id,ra,dec,mag'];
  for (let i = 0; i < rows; i++)
    lines.push(
      `${i},${(360 * random()).toFixed(6)},${((Math.asin(2 * random() - 1) * 180) / Math.PI).toFixed(6)},${(10 + 10 * random()).toFixed(2)}`,
    );
  writeFileSync(csv, `${lines.join('\n')}\n`);
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const rates: number[] = [];
  try {
    for (const withCatalog of [false, true]) {
      const database = await openDatabase({ databaseUrl: await freshDatabase(serverUrl, 'antares_bench_crossmatch') });
      try {
        await migrate(database.db);
        const repos = new Repositories(database.db, 'postgres');
        if (withCatalog) {
          const started = performance.now();
          await importCatalog(repos, csv, { name: 'bench_points', format: 'csv' });
          const seconds = (performance.now() - started) / 1000;
          console.log(`import: ${rows} rows in ${seconds.toFixed(1)} s: ${(rows / seconds).toFixed(0)} rows/s`);
        }
        const started = performance.now();
        const stats = await ingestFiles(repos, files);
        const seconds = (performance.now() - started) / 1000;
        rates.push(seconds / stats.packetsRead);
        console.log(
          `ingest ${withCatalog ? 'with' : 'without'} the catalog: ${stats.packetsRead} alerts in ${seconds.toFixed(1)} s (${(stats.packetsRead / seconds).toFixed(0)} alerts/s)`,
        );
      } finally {
        await database.close();
      }
    }
    console.log(`cross-match cost: ${((rates[1] - rates[0]) * 1000).toFixed(3)} ms per alert with ${rows} catalog rows (target < 1 ms)`);
  } finally {
    rmSync(csvDir, { recursive: true, force: true });
  }
}
