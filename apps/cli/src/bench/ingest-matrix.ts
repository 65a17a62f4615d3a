import path from 'node:path';

import { openDatabase, Repositories } from '@antares/db';
import { ingestFiles, type IngestStats } from '@antares/pipeline';

import { CpuMeter, MachineCpu } from './cpu-meter.ts';
import { argValue, benchSurvey, freshMigratedDatabase, report } from './ingest.ts';
import { ensurePrefilledArchive, prefillSpace, shortCount, withArchiveCopy } from './ingest-prefill.ts';
import { ingestShares, nightShares } from './ingest-workers.ts';
import { skyShareFiles } from './sky-shares.ts';
import { percentile } from './stats.ts';

const MATRIX_DATABASE = 'antares_bench_matrix';

/** One line of the final table: one run, or the median run of a case run several times. */
export interface MatrixRow {
  survey: string;
  database: string;
  workers: number;
  /** How several workers shared the packets: alternate night files (the default), or by sky. */
  split?: 'night' | 'sky';
  stats: Pick<IngestStats, 'packetsRead' | 'alertsStored'>;
  seconds: number;
  /** Share of all cores busy during the run (the whole machine), when /proc/stat can be read. */
  cpuBusy?: number;
  /** Packets/s of every run of the case, when it was run more than once. */
  rates?: number[];
}

/**
 * `npm run bench -- ingest-matrix [--prefill N] [--workers N] [--repeat N] [--objects N] [--nights K]`:
 * the ingest benchmarks side by side in one run on the PostgreSQL server, then one table: ZTF packets
 * and real-size Rubin packets (a year of history each), each into an empty database and into a copy of
 * an archive of N alert rows (default 10,000,000; `--prefill 0` leaves it out), with one ingest process
 * and with `--workers` (default 2) at once, sharing the night files (alternate nights, and into the empty
 * database also by sky: sky-shares.ts); Rubin also once its objects' history is stored (the nights
 * after the first 5). Where the disk cannot hold the archive and its copy, the prefilled runs are left
 * out, saying how much they need.
 *
 * The one-process runs into the empty database and into the archive are made `--repeat` times
 * (default 3) in turns, empty then archive: this machine's speed drifts by up to half within an hour,
 * and single pairs measured here differed by 2 % to 41 %. The table gives each case's median run and
 * the range; the lines after it give each pair's change and their median, which pt 3's 25 % is read against.
 */
export async function benchIngestMatrix(args: string[]): Promise<void> {
  const prefill = Number(argValue(args, '--prefill') ?? 10_000_000);
  if (!Number.isInteger(prefill) || prefill < 0) throw new Error('--prefill must be a whole number >= 0');
  const workers = Number(argValue(args, '--workers') ?? 2);
  if (!Number.isInteger(workers) || workers < 2) throw new Error('--workers must be a whole number >= 2');
  const repeat = Number(argValue(args, '--repeat') ?? 3);
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error('--repeat must be a whole number >= 1');
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const objects = Number(argValue(args, '--objects') ?? 1500);
  const nights = Number(argValue(args, '--nights') ?? 20);

  const rows: MatrixRow[] = [];
  const growth: string[] = [];
  const space = prefill > 0 ? await prefillSpace(serverUrl, prefill) : 'left out (--prefill 0)';
  if (space !== 'ok') console.log(`Prefilled runs ${space}`);
  for (const survey of ['ztf', 'rubin'] as const) {
    const lsstHistoryDays = survey === 'rubin' ? 365 : undefined;
    const prefix = survey === 'ztf' ? 'ztf_' : 'lsst_';
    const files = (await benchSurvey(args, lsstHistoryDays)).filter((f) => path.basename(f).startsWith(prefix));
    console.log(`\n${survey}: ${files.length} night files`);
    const archive = space === 'ok' ? await ensurePrefilledArchive(serverUrl, prefill, { objects, nights, lsstHistoryDays }) : undefined;
    const label = `${shortCount(prefill)} rows`;
    // The pairs first, in turns, each archive run right after its empty one.
    const empty: MatrixRow[] = [];
    const archived: MatrixRow[] = [];
    for (let run = 1; run <= repeat; run++) {
      const of = repeat > 1 ? ` (run ${run} of ${repeat})` : '';
      empty.push(await measured(survey, 'empty', 1, () => ingestEmpty(serverUrl, files), { which: of }));
      if (archive === undefined) continue;
      archived.push(
        await measured(survey, label, 1, () => withArchiveCopy(serverUrl, archive, (url) => ingestInto(url, files)), { which: of }),
      );
    }
    rows.push(medianRow(empty));
    // (Only with nights after the 5th: `--nights 5` or fewer would time nothing.)
    if (survey === 'rubin' && files.length > 5)
      rows.push(await measured(survey, 'empty, after 5 nights', 1, () => ingestAfterNights(serverUrl, files, 5)));
    const byNight = nightShares(files, workers);
    rows.push(await measured(survey, 'empty', workers, () => ingestEmptyShares(serverUrl, byNight), { split: 'night' }));
    const bySky = await skyShareFiles(files, workers);
    rows.push(await measured(survey, 'empty', workers, () => ingestEmptyShares(serverUrl, bySky), { split: 'sky' }));
    if (archive === undefined) continue;
    rows.push(medianRow(archived));
    const intoArchive = () => withArchiveCopy(serverUrl, archive, (url) => ingestShares(url, byNight));
    rows.push(await measured(survey, label, workers, intoArchive, { split: 'night' }));
    growth.push(growthLine(survey, label, empty, archived));
  }
  console.log(`\n${matrixTable(rows)}\n\n${SPLITS}`);
  if (growth.length > 0) console.log(`\n${growth.join('\n')}`);
}

function packetsPerSecond(row: Pick<MatrixRow, 'stats' | 'seconds'>): number {
  return row.stats.packetsRead / row.seconds;
}

/** The run of median rate (of an even number, the slower middle one), holding every run's rate. */
export function medianRow(runs: MatrixRow[]): MatrixRow {
  const byRate = [...runs].sort((a, b) => packetsPerSecond(a) - packetsPerSecond(b));
  const median = byRate[Math.ceil(byRate.length / 2) - 1];
  return runs.length === 1 ? median : { ...median, rates: runs.map(packetsPerSecond) };
}

/**
 * How much slower ingestion into the archive was than into an empty database, pair by pair (runs made
 * one after the other), and at the median pair: what the issue's 25 % bound is read against.
 */
export function growthLine(survey: string, label: string, empty: MatrixRow[], archived: MatrixRow[]): string {
  const changes = archived.map((run, i) => packetsPerSecond(run) / packetsPerSecond(empty[i]) - 1);
  // Rounded first, so that a change under half a percent reads 0 %, not -0 %.
  const pct = (c: number) => `${Math.round(100 * c) > 0 ? '+' : ''}${Math.round(100 * c) || 0} %`;
  const median = percentile(changes, 50);
  const pairs = changes.length > 1 ? `, pair by pair ${changes.map(pct).join(', ')}; median ${pct(median)}` : `: ${pct(median)}`;
  return `${survey}, 1 worker, ${label} against empty${pairs} (within 25 %: ${Math.abs(median) <= 0.25 ? 'yes' : 'no'})`;
}

/** A timed run: what it stored, its wall-clock seconds and the share of the cores busy meanwhile. */
interface Timed {
  stats: IngestStats;
  seconds: number;
  cpuBusy?: number;
}

/** What the table's "2 by night" and "2 by sky" mean. */
const SPLITS =
  'by night: each worker takes alternate night files, so both hold alerts of the same objects at once and wait for each ' +
  "other's sky regions (ADR 0035);\nby sky: each worker takes its own range of right ascension from every night file, as " +
  'consumers of different fields would.';

/** Runs `run` and reports it; `which` names the run of a repeated case, `split` how several workers shared the files. */
async function measured(
  survey: string,
  database: string,
  workers: number,
  run: () => Promise<Timed>,
  { which = '', split }: { which?: string; split?: MatrixRow['split'] } = {},
): Promise<MatrixRow> {
  const { stats, seconds, cpuBusy } = await run();
  const row = { survey, database, workers, split, stats, seconds, cpuBusy };
  report(`${survey}, ${database}, ${workers} worker${workers === 1 ? '' : 's'}${split ? ` by ${split}` : ''}${which}`, stats, seconds);
  return row;
}

function workersLabel(row: Pick<MatrixRow, 'workers' | 'split'>): string {
  return row.split === undefined ? String(row.workers) : `${row.workers} by ${row.split}`;
}

async function ingestEmpty(serverUrl: string, files: string[]): Promise<Timed> {
  return ingestInto(await freshMigratedDatabase(serverUrl, MATRIX_DATABASE), files);
}

async function ingestEmptyShares(serverUrl: string, shares: string[][]): Promise<Timed> {
  return ingestShares(await freshMigratedDatabase(serverUrl, MATRIX_DATABASE), shares);
}

/** The nights after the first `warmNights`, timed once those are stored: a running broker's case. */
async function ingestAfterNights(serverUrl: string, files: string[], warmNights: number): Promise<Timed> {
  const url = await freshMigratedDatabase(serverUrl, MATRIX_DATABASE);
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

/** The runs as one aligned table, rates rounded to whole numbers; a case run several times shows its median run and the range. */
export function matrixTable(rows: MatrixRow[]): string {
  const header = [
    'survey',
    'database',
    'workers',
    'packets',
    'alert rows',
    'seconds',
    'packets/s',
    'runs (packets/s)',
    'alert rows/s',
    'CPU busy',
  ];
  const cells = rows.map((r) => [
    r.survey,
    r.database,
    workersLabel(r),
    String(r.stats.packetsRead),
    String(r.stats.alertsStored),
    r.seconds.toFixed(1),
    packetsPerSecond(r).toFixed(0),
    r.rates === undefined ? '1' : `${r.rates.length} (${Math.min(...r.rates).toFixed(0)}-${Math.max(...r.rates).toFixed(0)})`,
    (r.stats.alertsStored / r.seconds).toFixed(0),
    r.cpuBusy === undefined ? '-' : `${(100 * r.cpuBusy).toFixed(0)} %`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  // Text columns left-aligned, numbers right-aligned.
  const line = (c: string[]) => c.map((v, i) => (i < 2 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  return [line(header), ...cells.map(line)].join('\n');
}
