import { existsSync, statfsSync } from 'node:fs';

import { migrate, openDatabase, pgCopyTarget, prefillArchive, Repositories, withDatabase } from '@antares/db';
import { ingestFiles, type IngestStats } from '@antares/pipeline';
import { DEFAULT_START_MJD, planSurvey } from '@antares/pipeline/simulate';
import pg from 'pg';

/**
 * `--prefill N` of the ingest benchmark: the simulated nights ingested into an archive that already
 * holds N alert rows over N/10 loci (PostgreSQL only). The archive is written once into
 * `antares_prefill_<N>` and kept; each run ingests into a file copy of it, so every run starts from
 * the same history and the archive itself is never changed.
 */
export async function benchPrefilled(
  serverUrl: string,
  files: string[],
  alerts: number,
  survey: PrefillSurvey,
  report: (label: string, stats: IngestStats, seconds: number) => void,
): Promise<void> {
  // Checked first: the archive takes minutes to write, and a full disk would stop it, or its copy, halfway.
  const space = await prefillSpace(serverUrl, alerts);
  if (space !== 'ok') {
    console.log(`--prefill ${space}`);
    return;
  }
  const archive = await ensurePrefilledArchive(serverUrl, alerts, survey);
  await withArchiveCopy(serverUrl, archive, async (runUrl) => {
    const run = await openDatabase({ databaseUrl: runUrl });
    try {
      const started = performance.now();
      const stats = await ingestFiles(new Repositories(run.db, 'postgres'), files);
      report(`PostgreSQL, ${shortCount(alerts)} rows`, stats, (performance.now() - started) / 1000);
    } finally {
      await run.close();
    }
  });
}

/** Disk per prefilled alert row, with its indexes (measured at 1 M and 10 M rows; README). */
const PREFILL_BYTES_PER_ROW = 2_900;

/**
 * 'ok' when the server's disk can hold the archive (unless written already) and a working copy of it,
 * else why not. A server whose data directory is not on this machine is not checked.
 */
export async function prefillSpace(serverUrl: string, alerts: number): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  let dataDirectory: string;
  let archiveExists: boolean;
  try {
    dataDirectory = (await admin.query<{ data_directory: string }>('SHOW data_directory')).rows[0].data_directory;
    archiveExists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [archiveName(alerts)])).rowCount !== 0;
  } catch {
    return 'ok';
  } finally {
    await admin.end();
  }
  if (!existsSync(dataDirectory)) return 'ok';
  const written = archiveExists && (await fillFinished(withDatabase(serverUrl, archiveName(alerts)), alerts));
  const stats = statfsSync(dataDirectory);
  return spaceVerdict(alerts, written, stats.bavail * stats.bsize, dataDirectory);
}

/** 'ok' or why not: the archive needs PREFILL_BYTES_PER_ROW a row, and each run's copy as much again. */
export function spaceVerdict(alerts: number, archiveWritten: boolean, freeBytes: number, where: string): string {
  const needed = alerts * PREFILL_BYTES_PER_ROW * (archiveWritten ? 1 : 2);
  if (freeBytes >= needed) return 'ok';
  const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;
  return (
    `left out: ${archiveWritten ? 'a working copy of the archive' : 'the archive and a working copy of it'} of ` +
    `${alerts.toLocaleString('en')} alert rows need about ${gb(needed)}, and ${where} has ${gb(freeBytes)} free`
  );
}

/** The simulated survey whose objects the archive's first loci sit on. */
export interface PrefillSurvey {
  objects: number;
  nights: number;
  lsstHistoryDays?: number;
}

/** The archive database of `alerts` rows (`antares_prefill_<N>`): written now unless a finished one is there. Returns its name. */
export async function ensurePrefilledArchive(serverUrl: string, alerts: number, survey: PrefillSurvey): Promise<string> {
  const archive = archiveName(alerts);
  const archiveUrl = await ensureArchiveDatabase(serverUrl, archive, alerts);
  const opened = await openDatabase({ databaseUrl: archiveUrl, poolSize: 2 });
  await migrate(opened.db);
  // The first loci sit where the simulated objects are: the new nights land on loci with two years of history.
  const plan = planSurvey({ ...survey, seed: 99, startMjd: DEFAULT_START_MJD });
  const target = await pgCopyTarget(archiveUrl);
  let lastReport = performance.now();
  const filled = await prefillArchive(opened.db, target, {
    alerts,
    beforeMjd: DEFAULT_START_MJD,
    anchors: plan.objects.map((o) => ({ ra: o.ra, dec: o.dec })),
    onProgress: (rows) => {
      if (performance.now() - lastReport < 10_000) return;
      lastReport = performance.now();
      process.stderr.write(`  ${rows.toLocaleString('en')} alert rows written\n`);
    },
  });
  await target.close();
  await opened.close();
  const gb = (filled.bytes / 1e9).toFixed(2);
  const perRow = (filled.bytes / alerts).toFixed(0);
  console.log(
    filled.reused
      ? `Prefilled archive ${archive} reused: ${alerts.toLocaleString('en')} alert rows, ${filled.loci.toLocaleString('en')} loci, ${gb} GB on disk (${perRow} bytes per alert row)`
      : `Prefilled archive ${archive} written: ${alerts.toLocaleString('en')} alert rows, ${filled.loci.toLocaleString('en')} loci in ${filled.seconds.toFixed(0)} s ` +
          `(${(alerts / filled.seconds).toFixed(0)} rows/s incl. index builds), ${gb} GB on disk (${perRow} bytes per alert row)`,
  );
  return archive;
}

export function archiveName(alerts: number): string {
  return `antares_prefill_${alerts}`;
}

/** `run` on a file copy of the archive, dropped afterwards: every run starts from the same history. */
export async function withArchiveCopy<T>(serverUrl: string, archive: string, run: (url: string) => Promise<T>): Promise<T> {
  const runName = `${archive}_run`;
  const copyStarted = performance.now();
  const runUrl = await copyDatabase(serverUrl, archive, runName);
  console.log(`  working copy ${runName} made in ${((performance.now() - copyStarted) / 1000).toFixed(1)} s`);
  try {
    return await run(runUrl);
  } finally {
    await dropDatabase(serverUrl, runName);
  }
}

export function shortCount(n: number): string {
  return n >= 1e6 ? `${n / 1e6} M` : n >= 1e3 ? `${n / 1e3} k` : String(n);
}

/** The archive's database: kept when its fill finished (the marker row), made anew otherwise. */
async function ensureArchiveDatabase(serverUrl: string, name: string, alerts: number): Promise<string> {
  const url = withDatabase(serverUrl, name);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount !== 0 && (await fillFinished(url, alerts))) return url;
    // A fill cut short leaves rows without its marker: start again rather than add to them.
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    return url;
  } finally {
    await admin.end();
  }
}

export async function fillFinished(url: string, alerts: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const marker = await client.query("SELECT to_regclass('bench_prefill') IS NOT NULL AS present");
    if (!marker.rows[0].present) return false;
    const done = await client.query('SELECT 1 FROM bench_prefill WHERE alerts = $1', [alerts]);
    return done.rowCount !== 0;
  } finally {
    await client.end();
  }
}

/** A file-level copy of the archive (no WAL for every page): seconds for a few GB. */
async function copyDatabase(serverUrl: string, template: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`);
  } finally {
    await admin.end();
  }
  return withDatabase(serverUrl, name);
}

async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
