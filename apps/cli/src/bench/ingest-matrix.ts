import path from 'node:path';

import { migrate, openDatabase, Repositories } from '@antares/db';
import { ingestFiles, type IngestStats } from '@antares/pipeline';

import { CpuMeter, MachineCpu } from './cpu-meter.ts';
import { argValue, benchSurvey, freshDatabase, report } from './ingest.ts';
import { ensurePrefilledArchive, prefillSpace, shortCount, withArchiveCopy } from './ingest-prefill.ts';
import { ingestWithWorkers } from './ingest-workers.ts';

const MATRIX_DATABASE = 'antares_bench_matrix';

/** One line of the final table. */
export interface MatrixRow {
  survey: string;
  database: string;
  workers: number;
  stats: Pick<IngestStats, 'packetsRead' | 'alertsStored'>;
  seconds: number;
  /** Share of all cores busy during the run (the whole machine), when /proc/stat can be read. */
  cpuBusy?: number;
}

/**
 * `npm run bench -- ingest-matrix [--prefill N] [--workers N] [--objects N] [--nights K]`: the ingest
 * benchmarks side by side in one run on the PostgreSQL server, then one table: ZTF packets and
 * real-size Rubin packets (a year of history each), each into an empty database and into a copy of
 * an archive of N alert rows (default 10,000,000; `--prefill 0` leaves it out), with one ingest process
 * and with `--workers` (default 2) at once; Rubin also once its objects' history is stored (the nights
 * after the first 5). Where the disk cannot hold the archive and its copy, the prefilled runs are left
 * out, saying how much they need.
 */
export async function benchIngestMatrix(args: string[]): Promise<void> {
  const prefill = Number(argValue(args, '--prefill') ?? 10_000_000);
  if (!Number.isInteger(prefill) || prefill < 0) throw new Error('--prefill must be a whole number >= 0');
  const workers = Number(argValue(args, '--workers') ?? 2);
  if (!Number.isInteger(workers) || workers < 2) throw new Error('--workers must be a whole number >= 2');
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const objects = Number(argValue(args, '--objects') ?? 1500);
  const nights = Number(argValue(args, '--nights') ?? 20);

  const rows: MatrixRow[] = [];
  const space = prefill > 0 ? await prefillSpace(serverUrl, prefill) : 'left out (--prefill 0)';
  if (space !== 'ok') console.log(`Prefilled runs ${space}`);
  for (const survey of ['ztf', 'rubin'] as const) {
    const lsstHistoryDays = survey === 'rubin' ? 365 : undefined;
    const prefix = survey === 'ztf' ? 'ztf_' : 'lsst_';
    const files = (await benchSurvey(args, lsstHistoryDays)).filter((f) => path.basename(f).startsWith(prefix));
    console.log(`\n${survey}: ${files.length} night files`);
    rows.push(await measured(survey, 'empty', 1, () => ingestEmpty(serverUrl, files)));
    if (survey === 'rubin') rows.push(await measured(survey, 'empty, after 5 nights', 1, () => ingestAfterNights(serverUrl, files, 5)));
    rows.push(await measured(survey, 'empty', workers, () => ingestEmptyWithWorkers(serverUrl, files, workers)));
    if (space !== 'ok') continue;
    const archive = await ensurePrefilledArchive(serverUrl, prefill, { objects, nights, lsstHistoryDays });
    const label = `${shortCount(prefill)} rows`;
    for (const n of [1, workers]) {
      rows.push(
        await measured(survey, label, n, () =>
          withArchiveCopy(serverUrl, archive, (url) => (n === 1 ? ingestInto(url, files) : ingestWithWorkers(url, files, n))),
        ),
      );
    }
  }
  console.log(`\n${matrixTable(rows)}`);
}

/** A timed run: what it stored, its wall-clock seconds and the share of the cores busy meanwhile. */
interface Timed {
  stats: IngestStats;
  seconds: number;
  cpuBusy?: number;
}

async function measured(survey: string, database: string, workers: number, run: () => Promise<Timed>): Promise<MatrixRow> {
  const { stats, seconds, cpuBusy } = await run();
  const row = { survey, database, workers, stats, seconds, cpuBusy };
  report(`${survey}, ${database}, ${workers} worker${workers === 1 ? '' : 's'}`, stats, seconds);
  return row;
}

async function ingestEmpty(serverUrl: string, files: string[]): Promise<Timed> {
  return ingestInto(await migratedFreshDatabase(serverUrl), files);
}

async function ingestEmptyWithWorkers(serverUrl: string, files: string[], workers: number): Promise<Timed> {
  return ingestWithWorkers(await migratedFreshDatabase(serverUrl), files, workers);
}

/** The nights after the first `warmNights`, timed once those are stored: a running broker's case. */
async function ingestAfterNights(serverUrl: string, files: string[], warmNights: number): Promise<Timed> {
  const url = await migratedFreshDatabase(serverUrl);
  const opened = await openDatabase({ databaseUrl: url });
  try {
    await ingestFiles(new Repositories(opened.db, 'postgres'), files.slice(0, warmNights));
  } finally {
    await opened.close();
  }
  return ingestInto(url, files.slice(warmNights));
}

/** One ingest process (this one) into the database at `url`, with the CPU line of bench ingest. */
async function ingestInto(url: string, files: string[]): Promise<Timed> {
  const opened = await openDatabase({ databaseUrl: url });
  try {
    const meter = await CpuMeter.start(url, new URL(url).pathname.slice(1));
    const machine = MachineCpu.start();
    const started = performance.now();
    const stats = await ingestFiles(new Repositories(opened.db, 'postgres'), files);
    const seconds = (performance.now() - started) / 1000;
    const cpuBusy = machine.busyShare(seconds);
    console.log(await meter.line(stats.packetsRead));
    return { stats, seconds, cpuBusy };
  } finally {
    await opened.close();
  }
}

async function migratedFreshDatabase(serverUrl: string): Promise<string> {
  const url = await freshDatabase(serverUrl, MATRIX_DATABASE);
  const opened = await openDatabase({ databaseUrl: url });
  await migrate(opened.db);
  await opened.close();
  return url;
}

/** The runs as one aligned table, rates rounded to whole numbers. */
export function matrixTable(rows: MatrixRow[]): string {
  const header = ['survey', 'database', 'workers', 'packets', 'alert rows', 'seconds', 'packets/s', 'alert rows/s', 'CPU busy'];
  const cells = rows.map((r) => [
    r.survey,
    r.database,
    String(r.workers),
    String(r.stats.packetsRead),
    String(r.stats.alertsStored),
    r.seconds.toFixed(1),
    (r.stats.packetsRead / r.seconds).toFixed(0),
    (r.stats.alertsStored / r.seconds).toFixed(0),
    r.cpuBusy === undefined ? '-' : `${(100 * r.cpuBusy).toFixed(0)} %`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  // Text columns left-aligned, numbers right-aligned.
  const line = (c: string[]) => c.map((v, i) => (i < 2 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  return [line(header), ...cells.map(line)].join('\n');
}
