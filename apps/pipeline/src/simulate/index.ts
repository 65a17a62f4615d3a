// Demo survey simulator: writes ZTF-format (schema 4.02) alert packets, one Avro Object Container
// File per night, and Rubin (schema 10.0) alerts of the objects Rubin sees too (and of a few only it
// sees), one file per night that has any, so the broker can be run end to end without access to the
// real alert streams.
// Everything is derived from `seed`: the same options always produce byte-identical files,
// however many processes wrote them.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type { LsstSchemaVersion } from './lsst-schema.ts';
import { lsstAlertsByNight, lsstNightFile } from './lsst-writer.ts';
import { alertsByNight, nightFile, type NightJob, writeNights } from './night-writer.ts';
import type { OcfCodec } from './ocf-writer.ts';
import { planSurvey, type SurveyAnchors } from './plan.ts';

export { type ContainerHeader, readContainerRecords } from './container-records.ts';
export type { LsstObject, LsstObs, LsstPlan } from './lsst-plan.ts';
export { LSST_ALERT_SCHEMA, LSST_SCHEMA_VERSION, lsstAlertSchema, lsstAlertType, type LsstSchemaVersion } from './lsst-schema.ts';
export { OcfWriter } from './ocf-writer.ts';
export { planSurvey, SIM_CLASSES, type SimClass, type SimObject, type SurveyAnchors, type SurveyPlan } from './plan.ts';
export { alertRecordSizes, sizeSummary } from './sizes.ts';
export { bigIntLongType, typeWithBigIntLongs, ZTF_ALERT_SCHEMA, ZTF_SCHEMA_VERSION, ztfAlertType } from './ztf-schema.ts';

export const DEFAULT_START_MJD = 61000; // 2025-11-21

/**
 * The version of what the simulator writes: one up whenever its packets change (2: Rubin cutouts carry
 * their variance and PSF, as real ones do). The benchmarks keep a simulated survey in the temporary
 * folder for their next runs, under a name holding it, so a changed simulator never reuses old files.
 */
export const SIMULATED_PACKETS_VERSION = 2;

export interface SimulateOptions {
  objects: number;
  nights: number;
  seed: number;
  outDir: string;
  /** MJD of the first night (rounded down to a whole day). Default 61000. */
  startMjd?: number;
  /** Called every few dozen packets and at the end. */
  onProgress?: (done: number, total: number) => void;
  /** Avro block codec. Default 'null', as ZTF itself uses. */
  codec?: OcfCodec;
  /** Processes writing nights (this one included). Default: 2 if the machine has 2+ cores. */
  processes?: number;
  /** Real galaxies and stars to place some objects on (the demo's catalog matches). */
  anchors?: SurveyAnchors;
  /** Rubin alerts too. Default true. */
  lsst?: boolean;
  /** Days of Rubin visits before the first night (default 30); 365 gives real-size Rubin packets. */
  lsstHistoryDays?: number;
  /** Rubin alert schema: '10.0' (default) or '11.0'. */
  lsstSchemaVersion?: LsstSchemaVersion;
}

export interface SimulateResult {
  /** ZTF night files, then the Rubin ones. */
  files: string[];
  packets: number; // ZTF and Rubin
  ztfPackets: number;
  lsstPackets: number;
  objects: number; // distinct objects with at least one packet (of either survey)
}

function checkCount(name: string, v: number, min: number): void {
  if (!Number.isInteger(v) || v < min) throw new Error(`simulateSurvey: ${name} must be an integer >= ${min}, got ${v}`);
}

/**
 * Run some nights in a child process. A process rather than a worker thread because the code is
 * TypeScript: Node 20 does not apply the tsx loader hooks inside worker threads, but a child
 * started with `--import <tsx loader>` (what the tsx CLI does) loads .ts files fine.
 */
function startHelper(job: NightJob, nights: number[], onPackets: (n: number) => void, children: ChildProcess[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href; // throws -> rejects
    const child = fork(fileURLToPath(new URL('./worker.ts', import.meta.url)), [JSON.stringify({ job, nights })], {
      execArgv: ['--import', tsx],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(child);
    child.on('message', (m: { packets: number }) => onPackets(m.packets));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`simulator helper process exited with ${signal ?? `code ${code}`}`)),
    );
  });
}

export async function simulateSurvey(options: SimulateOptions): Promise<SimulateResult> {
  const { objects, nights, outDir, onProgress } = options;
  checkCount('objects', objects, 0);
  checkCount('nights', nights, 1);
  if (!Number.isFinite(options.seed)) throw new Error('simulateSurvey: seed must be a number');
  const startMjd = Math.floor(options.startMjd ?? DEFAULT_START_MJD);
  if (!Number.isFinite(startMjd)) throw new Error('simulateSurvey: startMjd must be a number');
  const job: NightJob = {
    objects,
    nights,
    seed: Math.trunc(options.seed) >>> 0,
    startMjd,
    outDir,
    codec: options.codec ?? 'null',
    anchors: options.anchors,
    lsst: options.lsst ?? true,
    lsstHistoryDays: options.lsstHistoryDays,
    lsstSchemaVersion: options.lsstSchemaVersion,
  };

  const plan = planSurvey(job);
  const byNight = alertsByNight(plan, nights);
  const lsstByNight = lsstAlertsByNight(plan, nights);
  const ztfPackets = byNight.reduce((n, l) => n + l.length, 0);
  const lsstPackets = lsstByNight.reduce((n, l) => n + l.length, 0);
  const total = ztfPackets + lsstPackets;
  const alerted = new Set([...byNight.flatMap((l) => l.map(([obj]) => obj)), ...lsstByNight.flatMap((l) => l.map(([lo]) => lo.sim))]);
  await mkdir(outDir, { recursive: true });

  let done = 0;
  let reported = 0;
  const count = (n: number) => {
    done += n;
    if (Math.abs(done - reported) >= 100 || done === total) {
      reported = done;
      onProgress?.(done, total);
    }
  };
  // Split nights between processes by alternation (neighbouring nights have similar loads). This
  // process keeps the first share and reuses its plan; helpers re-plan (~1 s) in parallel.
  const procs = Math.max(1, Math.min(options.processes ?? (availableParallelism() >= 2 ? 2 : 1), nights));
  const shares = Array.from({ length: procs }, (_, t) => byNight.map((_, n) => n).filter((n) => n % procs === t));
  const children: ChildProcess[] = [];
  const helpers = shares.slice(1).map((share) => {
    let counted = 0;
    const run = startHelper(
      job,
      share,
      (n) => {
        counted += n;
        count(n);
      },
      children,
    );
    // If a helper cannot run (e.g. no tsx to load TypeScript with), write its nights here
    // instead: the files come out the same, only slower.
    return run.catch(async () => {
      count(-counted);
      await writeNights(job, plan, share, () => count(1));
    });
  });
  try {
    await writeNights(job, plan, shares[0], () => count(1));
    await Promise.all(helpers);
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
  }
  if (reported !== done) onProgress?.(done, total);

  const files = [
    ...byNight.map((_, n) => nightFile(job, n)),
    ...lsstByNight.flatMap((list, n) => (list.length > 0 ? [lsstNightFile(job, n)] : [])),
  ];
  return { files, packets: total, ztfPackets, lsstPackets, objects: alerted.size };
}
