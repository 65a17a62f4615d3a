import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { migrate, openDatabase, Repositories } from '@antares/db';
import { expandInputs, ingestFiles } from '@antares/pipeline';
import { simulateSurvey } from '@antares/pipeline/simulate';
import pg from 'pg';

/**
 * `npm run bench -- ingest [--objects N] [--nights K]`: alert packets per second through the whole
 * pipeline (decode, Level 1, association, thumbnails, locus properties, storage) with simulated ZTF
 * alerts, on embedded PGlite and on the PostgreSQL server.
 */
export async function benchIngest(args: string[]): Promise<void> {
  const files = await benchSurvey(args);

  const pgliteDir = mkdtempSync(path.join(os.tmpdir(), 'antares-bench-pglite-'));
  try {
    const pglite = await openDatabase({ pgliteDir });
    await migrate(pglite.db);
    await report('PGlite (embedded)', new Repositories(pglite.db), files);
    await pglite.close();
  } finally {
    rmSync(pgliteDir, { recursive: true, force: true });
  }

  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const url = await freshDatabase(serverUrl, 'antares_bench_ingest');
  const server = await openDatabase({ databaseUrl: url });
  await migrate(server.db);
  await report('PostgreSQL server', new Repositories(server.db, 'postgres'), files);
  await server.close();
}

async function report(label: string, repos: Repositories, files: string[]): Promise<void> {
  const started = performance.now();
  const stats = await ingestFiles(repos, files);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${label.padEnd(20)} ${stats.packetsRead} packets (${stats.alertsStored} alert rows incl. history, ${stats.lociCreated} loci) in ${seconds.toFixed(1)} s: ` +
      `${(stats.packetsRead / seconds).toFixed(0)} alerts/s (target on PostgreSQL: >= 1000)`,
  );
}

export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export function argValue(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

/**
 * The benchmarks' simulated survey (`--objects`, default 1,500, over `--nights`, default 20): made once,
 * kept in the temporary folder for the next runs. Returns its files.
 */
export async function benchSurvey(args: string[]): Promise<string[]> {
  const objects = Number(argValue(args, '--objects') ?? 1500);
  const nights = Number(argValue(args, '--nights') ?? 20);
  const dir = path.join(os.tmpdir(), `antares-bench-survey-${objects}-${nights}`);
  if (!existsSync(dir) || readdirSync(dir).length === 0) {
    console.log(`Simulating ${objects} objects over ${nights} nights into ${dir} ...`);
    await simulateSurvey({ objects, nights, seed: 99, outDir: dir });
  }
  return expandInputs([dir]);
}
