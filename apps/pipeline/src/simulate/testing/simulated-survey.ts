import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

import avro from 'avsc';
import { afterAll, beforeAll } from 'vitest';

import { decodeAvroFile, fullHistory, type LsstPacket } from '../../sources/alert-avro.ts';
import { type SimulateResult, simulateSurvey } from '../index.ts';
import { typeWithBigIntLongs } from '../ztf-schema.ts';

/**
 * One small simulated survey (six nights, ZTF and Rubin) written by two processes, and its packets decoded,
 * for the simulator tests to read: each test file that calls useSimulatedSurvey() writes its own.
 */
export type Packet = any;

export const OPTS = { objects: 150, nights: 6, seed: 7, startMjd: 61000 };
export const survey = {
  /** The temporary folder; removed after the file's tests. */
  dir: '',
  first: undefined as unknown as SimulateResult,
  /** The onProgress calls of that run, as [done, total]. */
  progress: [] as [number, number][],
  /** The ZTF packets, decoded by avsc. */
  packets: [] as Packet[],
  /** Rubin files decoded by avsc (BigInt ids) and by the ingestion's own decoder. */
  rubinRaw: [] as Packet[],
  rubin: [] as LsstPacket[],
};
export const ztfFiles = (r: SimulateResult) => r.files.filter((f) => basename(f).startsWith('ztf_'));
export const lsstFiles = (r: SimulateResult) => r.files.filter((f) => basename(f).startsWith('lsst_'));

/** Decode a container with the writer schema embedded in it (as any consumer would). */
export async function decode(path: string): Promise<Packet[]> {
  const out: Packet[] = [];
  await new Promise((resolve, reject) => {
    avro
      .createFileDecoder(path, { parseHook: (schema) => typeWithBigIntLongs(schema) })
      .on('data', (p: Packet) => out.push(p))
      .on('end', resolve)
      .on('error', reject);
  });
  return out;
}

export function useSimulatedSurvey(): void {
  beforeAll(async () => {
    // Test files share this module when the runner does not isolate them: start each file's survey empty,
    // emptying the arrays in place (test files hold them from before this hook runs).
    for (const list of [survey.progress, survey.packets, survey.rubinRaw, survey.rubin]) list.length = 0;
    survey.dir = await mkdtemp(join(tmpdir(), 'antares-sim-'));
    // Two processes: a helper child writes every other night (simulate-files.test.ts compares with one).
    survey.first = await simulateSurvey({
      ...OPTS,
      processes: 2,
      outDir: join(survey.dir, 'a'),
      onProgress: (d, t) => survey.progress.push([d, t]),
    });
    for (const f of ztfFiles(survey.first)) survey.packets.push(...(await decode(f)));
    for (const f of lsstFiles(survey.first)) {
      survey.rubinRaw.push(...(await decode(f)));
      for await (const r of decodeAvroFile(f)) if ('packet' in r && r.packet.survey === 'lsst') survey.rubin.push(fullHistory(r.packet));
    }
  }, 120_000);

  afterAll(async () => {
    await rm(survey.dir, { recursive: true, force: true });
  });
}
