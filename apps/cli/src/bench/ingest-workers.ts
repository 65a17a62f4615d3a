import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type { IngestStats } from '@antares/pipeline';

import { busyShare } from './cpu-meter.ts';

/** What several ingest processes did together, timed from the first one's start to the last one's end. */
export interface WorkersResult {
  stats: IngestStats;
  seconds: number;
  /** Share of all cores the machine kept busy over those seconds (cpu-meter.ts), when it can be read. */
  cpuBusy?: number;
}

interface WorkerResult {
  started: number;
  ended: number;
  busyAtStart?: number;
  busyAtEnd?: number;
  stats: IngestStats;
}

/** The night files dealt out to `workers` workers by night: each takes alternate files. */
export function nightShares(files: string[], workers: number): string[][] {
  return Array.from({ length: workers }, (_, w) => files.filter((_, i) => i % workers === w));
}

/**
 * One process per share of files ingests it into the database at `url`, all at once, as that many
 * `antares ingest` processes would; the database must be migrated already.
 */
export async function ingestShares(url: string, shares: string[][]): Promise<WorkersResult> {
  const children: ChildProcess[] = [];
  try {
    const results = await Promise.all(shares.map((share) => runWorker(url, share, children)));
    const first = results.reduce((a, b) => (b.started < a.started ? b : a));
    const last = results.reduce((a, b) => (b.ended > a.ended ? b : a));
    const seconds = (last.ended - first.started) / 1000;
    const sum = (key: 'packetsRead' | 'alertsStored' | 'lociCreated') => results.reduce((n, r) => n + r.stats[key], 0);
    const stats = {
      ...results[0].stats,
      packetsRead: sum('packetsRead'),
      alertsStored: sum('alertsStored'),
      lociCreated: sum('lociCreated'),
    };
    return { stats, seconds, cpuBusy: busyShare(first.busyAtStart, last.busyAtEnd, seconds) };
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

function runWorker(url: string, files: string[], children: ChildProcess[]): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    // A process, not a worker thread: the tsx loader hooks do not apply inside worker threads.
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const child = fork(fileURLToPath(new URL('./ingest-worker.ts', import.meta.url)), [JSON.stringify({ url, files })], {
      execArgv: ['--import', tsx, '--max-semi-space-size=64'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(child);
    let result: WorkerResult | undefined;
    child.on('message', (m: WorkerResult) => (result = m));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`ingest worker exited with code ${code}`))));
  });
}
