import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { CutoutPacks, migrate, openDatabase, type OpenedDatabase, Repositories, withDatabase } from '@antares/db';
import { expandInputs, ingestFiles, type IngestStats } from '@antares/pipeline';
import {
  alertRecordSizes,
  type LsstSchemaVersion,
  SIMULATED_PACKETS_VERSION,
  simulateSurvey,
  sizeSummary,
} from '@antares/pipeline/simulate';
import pg from 'pg';

import { CpuMeter } from './cpu-meter.ts';
import { benchPrefilled } from './ingest-prefill.ts';
import { ingestShares, nightShares } from './ingest-workers.ts';
import { skyShareFiles } from './sky-shares.ts';

/**
 * `npm run bench -- ingest [--objects N] [--nights K] [--survey all|ztf|rubin] [--rubin-schema 10.0|11.0] [--workers N] [--cutout-packs]`: alert
 * packets per second through the whole pipeline (decode, Level 1, association, thumbnails, locus
 * properties, storage) with simulated alerts, on embedded PGlite and on the PostgreSQL server.
 * `--survey rubin` ingests only the Rubin packets, simulated with a year of history (real-size
 * packets). `--workers N` (N > 1) also runs N ingest processes at once on the server, each on its
 * share of the night files (alternate nights, then by sky), as N `antares ingest` processes would (PGlite is then skipped).
 * `--prefill N` also ingests the nights into an archive already holding N alert rows (PostgreSQL only,
 * PGlite is then skipped; see ingest-prefill.ts), next to the empty-database figure.
 * `--survey rubin` also times the nights after the first `--warm-nights` (default 5): a running broker's
 * case, whose objects' history was stored with their earlier packets (the first night an object is seen
 * brings its whole year of history). `--cutout-packs` (one worker, no prefill): the PostgreSQL runs keep the
 * cutouts in pack files in a temporary folder, as ANTARES_CUTOUT_DIR does (ADR 0051), instead of in the
 * database; run it apart, not after a run without, so that both meet the same cold process. Each
 * PostgreSQL line is followed by the CPU the run used (cpu-meter.ts).
 */
export async function benchIngest(args: string[]): Promise<void> {
  const survey = argValue(args, '--survey') ?? 'all';
  if (!['all', 'ztf', 'rubin'].includes(survey)) throw new Error(`--survey must be all, ztf or rubin, not ${survey}`);
  const workers = Number(argValue(args, '--workers') ?? 1);
  if (!Number.isInteger(workers) || workers < 1) throw new Error('--workers must be a whole number >= 1');
  const prefill = argValue(args, '--prefill') === undefined ? undefined : Number(argValue(args, '--prefill'));
  if (prefill !== undefined && (!Number.isInteger(prefill) || prefill < 1)) throw new Error('--prefill must be a whole number >= 1');
  const schema = argValue(args, '--rubin-schema') ?? '10.0';
  if (schema !== '10.0' && schema !== '11.0') throw new Error(`--rubin-schema must be 10.0 or 11.0, not ${schema}`);
  const cutoutPacks = args.includes('--cutout-packs');
  if (cutoutPacks && (workers > 1 || prefill !== undefined)) throw new Error('--cutout-packs goes with one worker and no --prefill');
  const lsstHistoryDays = survey === 'rubin' ? 365 : undefined;
  const all = await benchSurvey(args, lsstHistoryDays, schema);
  const prefix = survey === 'ztf' ? 'ztf_' : survey === 'rubin' ? 'lsst_' : '';
  const files = all.filter((f) => path.basename(f).startsWith(prefix));
  const sizes = sizeSummary((await Promise.all(files.map(alertRecordSizes))).flat());
  const kb = (n: number) => (n / 1024).toFixed(1);
  console.log(
    `${survey} packets: ${sizes.count}, size min ${kb(sizes.min)} KB, median ${kb(sizes.median)} KB, p90 ${kb(sizes.p90)} KB, max ${kb(sizes.max)} KB`,
  );

  if (prefill !== undefined) console.log('--prefill: PostgreSQL only (PGlite is skipped)');
  if (workers === 1 && prefill === undefined) {
    const pgliteDir = mkdtempSync(path.join(os.tmpdir(), 'antares-bench-pglite-'));
    try {
      const pglite = await openDatabase({ pgliteDir });
      await migrate(pglite.db);
      const started = performance.now();
      const stats = await ingestFiles(new Repositories(pglite.db), files);
      report('PGlite (embedded)', stats, (performance.now() - started) / 1000);
      await pglite.close();
    } finally {
      rmSync(pgliteDir, { recursive: true, force: true });
    }
  }

  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const packDir = cutoutPacks ? mkdtempSync(path.join(os.tmpdir(), 'antares-bench-cutouts-')) : undefined;
  const serverRepos = (db: OpenedDatabase['db']) => new Repositories(db, 'postgres', packDir ? new CutoutPacks(packDir) : undefined);
  try {
    const url = await freshDatabase(serverUrl, 'antares_bench_ingest');
    const server = await openDatabase({ databaseUrl: url });
    await migrate(server.db);
    const meter = await CpuMeter.start(serverUrl, 'antares_bench_ingest');
    const started = performance.now();
    const stats = await ingestFiles(serverRepos(server.db), files);
    report(packDir ? 'PG, cutout packs' : 'PostgreSQL server', stats, (performance.now() - started) / 1000);
    console.log(await meter.line(stats.packetsRead));
    await server.close();
    if (packDir) console.log(`  ${packSummary(packDir)} outside the database`);
    if (survey === 'rubin' && workers === 1 && prefill === undefined) {
      const warmNights = Number(argValue(args, '--warm-nights') ?? 5);
      if (!Number.isInteger(warmNights) || warmNights < 1 || warmNights >= files.length)
        throw new Error(`--warm-nights must be a whole number from 1 to ${files.length - 1}`);
      await benchKnownObjects(serverUrl, files, warmNights, serverRepos);
    }
  } finally {
    if (packDir) rmSync(packDir, { recursive: true, force: true });
  }
  if (workers > 1) await benchWorkers(serverUrl, files, workers);
  if (prefill !== undefined) {
    const objects = Number(argValue(args, '--objects') ?? 1500);
    const nights = Number(argValue(args, '--nights') ?? 20);
    await benchPrefilled(serverUrl, files, prefill, { objects, nights, lsstHistoryDays }, report);
  }
}

export function report(label: string, stats: IngestStats, seconds: number): void {
  console.log(
    `${label.padEnd(20)} ${stats.packetsRead} packets (${stats.alertsStored} alert rows incl. history, ${stats.lociCreated} loci) in ${seconds.toFixed(1)} s: ` +
      `${(stats.packetsRead / seconds).toFixed(0)} packets/s, ${(stats.alertsStored / seconds).toFixed(0)} alert rows/s (target on PostgreSQL: >= 1000 packets/s)`,
  );
}

/** The pack files under `dir` and their size, e.g. "4 packs, 198 MB of cutouts". */
function packSummary(dir: string): string {
  const packs = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  const bytes = packs.reduce((sum, entry) => sum + statSync(path.join(entry.parentPath, entry.name)).size, 0);
  return `${packs.length} packs, ${(bytes / 1024 / 1024).toFixed(0)} MB of cutouts`;
}

/** The nights after the first `warmNights`, timed once those are stored (one night file per night). */
async function benchKnownObjects(
  serverUrl: string,
  files: string[],
  warmNights: number,
  serverRepos: (db: OpenedDatabase['db']) => Repositories,
): Promise<void> {
  const server = await openDatabase({ databaseUrl: await freshDatabase(serverUrl, 'antares_bench_ingest') });
  try {
    await migrate(server.db);
    const repos = serverRepos(server.db);
    await ingestFiles(repos, files.slice(0, warmNights));
    const meter = await CpuMeter.start(serverUrl, 'antares_bench_ingest');
    const started = performance.now();
    const stats = await ingestFiles(repos, files.slice(warmNights));
    report(`PG, after ${warmNights} nights`, stats, (performance.now() - started) / 1000);
    console.log(await meter.line(stats.packetsRead));
  } finally {
    await server.close();
  }
}

/**
 * N processes ingest into one fresh database at once (ingest-workers.ts): alternate night files (each
 * worker holds the same objects as the others at the same time), then each its range of right ascension
 * from every night (sky-shares.ts), as consumers of different fields would.
 */
async function benchWorkers(serverUrl: string, files: string[], workers: number): Promise<void> {
  const splits = [
    ['by night', nightShares(files, workers)],
    ['by sky', await skyShareFiles(files, workers)],
  ] as const;
  for (const [split, shares] of splits) {
    const { stats, seconds } = await ingestShares(await freshMigratedDatabase(serverUrl, 'antares_bench_ingest_workers'), shares);
    report(`PG, ${workers} workers ${split}`, stats, seconds);
  }
}

/** A new, empty database `name` on the server, migrated; returns its URL. */
export async function freshMigratedDatabase(serverUrl: string, name: string): Promise<string> {
  const url = await freshDatabase(serverUrl, name);
  const opened = await openDatabase({ databaseUrl: url });
  await migrate(opened.db);
  await opened.close();
  return url;
}

export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return withDatabase(serverUrl, name);
}

export function argValue(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

/**
 * The benchmarks' simulated survey (`--objects`, default 1,500, over `--nights`, default 20): made once,
 * kept in the temporary folder for the next runs. `lsstHistoryDays` (365 for real-size Rubin packets)
 * simulates that much Rubin history before the first night, in the Rubin schema given. Returns its files.
 */
export async function benchSurvey(
  args: string[],
  lsstHistoryDays?: number,
  lsstSchemaVersion: LsstSchemaVersion = '10.0',
): Promise<string[]> {
  const objects = Number(argValue(args, '--objects') ?? 1500);
  const nights = Number(argValue(args, '--nights') ?? 20);
  const history = (lsstHistoryDays ? `-rubin${lsstHistoryDays}` : '') + (lsstSchemaVersion === '10.0' ? '' : `-v${lsstSchemaVersion}`);
  const dir = path.join(os.tmpdir(), `antares-bench-survey-v${SIMULATED_PACKETS_VERSION}-${objects}-${nights}${history}`);
  if (!existsSync(dir) || readdirSync(dir).length === 0) {
    console.log(`Simulating ${objects} objects over ${nights} nights into ${dir} ...`);
    await simulateSurvey({ objects, nights, seed: 99, outDir: dir, lsstHistoryDays, lsstSchemaVersion });
  }
  return expandInputs([dir]);
}
