import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

import avro from 'avsc';
import { beforeAll, describe, expect, it } from 'vitest';

import { planSurvey, type SimulateResult, simulateSurvey } from './index.ts';
import { LSST_ALERT_SCHEMA, lsstAlertType } from './lsst-schema.ts';
import { OcfWriter } from './ocf-writer.ts';
import { decode, lsstFiles, OPTS, survey, useSimulatedSurvey, ztfFiles } from './testing/simulated-survey.ts';
import { ZTF_ALERT_SCHEMA, ztfAlertType } from './ztf-schema.ts';

// The files the simulator writes: names, bytes for a seed, the schemas they embed, the options.
useSimulatedSurvey();
const { packets, progress, rubin } = survey;
let first: SimulateResult;
let second: SimulateResult;
let other: SimulateResult;
let dir: string;

beforeAll(async () => {
  ({ dir, first } = survey);
  // One process vs the fixture's two: must not change a byte; another seed must.
  second = await simulateSurvey({ ...OPTS, processes: 1, outDir: join(dir, 'b') });
  other = await simulateSurvey({ ...OPTS, processes: 1, seed: 8, outDir: join(dir, 'c') });
}, 120_000);

describe('simulateSurvey output files', () => {
  it('writes one ztf_<YYYYMMDD>_sim.avro per night, consecutive dates, and lsst_<YYYYMMDD>_sim.avro for nights with Rubin alerts', () => {
    expect(ztfFiles(first).map((f) => basename(f))).toEqual([
      'ztf_20251121_sim.avro',
      'ztf_20251122_sim.avro',
      'ztf_20251123_sim.avro',
      'ztf_20251124_sim.avro',
      'ztf_20251125_sim.avro',
      'ztf_20251126_sim.avro',
    ]);
    expect(lsstFiles(first).length).toBeGreaterThan(0);
    for (const f of lsstFiles(first)) expect(basename(f)).toMatch(/^lsst_202511(2[1-6])_sim\.avro$/);
    expect(packets.length).toBe(first.ztfPackets);
    expect(rubin.length).toBe(first.lsstPackets);
    expect(first.packets).toBe(first.ztfPackets + first.lsstPackets);
    // Objects with a packet of either survey (some ZTF objects alert only through Rubin in these nights).
    const plan = planSurvey(OPTS);
    const seen = new Set(packets.map((p) => p.objectId));
    const rubinObjects = new Set(rubin.map((p) => String(p.diaSource.diaObjectId)));
    const alerted = new Set([
      ...plan.objects.filter((o) => seen.has(o.objectId)),
      ...plan.lsst.objects.filter((o) => rubinObjects.has(String(o.diaObjectId))).map((o) => o.sim),
    ]);
    expect(first.objects).toBe(alerted.size);
    expect(progress.at(-1)).toEqual([first.packets, first.packets]);
    expect(progress.every(([d, t], i) => t === first.packets && (i === 0 || d >= progress[i - 1][0]))).toBe(true);
  });

  it('is byte-identical for the same seed (with or without a helper process), different for another', async () => {
    expect(second.files.map((f) => basename(f))).toEqual(first.files.map((f) => basename(f)));
    for (let i = 0; i < first.files.length; i++) {
      const a = await readFile(first.files[i]);
      expect(a.equals(await readFile(second.files[i])), first.files[i]).toBe(true);
    }
    for (let i = 0; i < ztfFiles(first).length; i++)
      expect((await readFile(first.files[i])).equals(await readFile(other.files[i]))).toBe(false);
  });

  it('writes the same ZTF files with Rubin left out', async () => {
    const ztfOnly = await simulateSurvey({ ...OPTS, processes: 1, lsst: false, outDir: join(dir, 'z') });
    expect(ztfOnly.files).toHaveLength(ztfFiles(first).length);
    expect(ztfOnly.lsstPackets).toBe(0);
    for (let i = 0; i < ztfOnly.files.length; i++)
      expect((await readFile(ztfOnly.files[i])).equals(await readFile(first.files[i]))).toBe(true);
  });

  // Re-encode every decoded packet with the full type and rebuild the container: same bytes.
  it.each([
    ['Rubin 10.0', { file: () => lsstFiles(first)[0], schema: LSST_ALERT_SCHEMA, type: lsstAlertType, copy: 'reencoded-lsst.avro' }],
    ['4.02', { file: () => first.files[2], schema: ZTF_ALERT_SCHEMA, type: ztfAlertType, copy: 'reencoded.avro' }],
  ] as const)(
    'embeds the %s schema and encodes exactly as avsc would encode the whole record',
    async (_version, { file, schema, type, copy }) => {
      const path = file();
      const header = avro.extractFileHeader(path, { decode: false })!;
      expect(JSON.parse(String(header.meta['avro.schema']))).toEqual(schema);
      const alertType = type();
      const writer = await OcfWriter.create(join(dir, copy), JSON.stringify(schema), header.sync as Buffer, 'null');
      for (const p of await decode(path)) await writer.append(alertType.toBuffer(p));
      await writer.close();
      expect((await readFile(join(dir, copy))).equals(await readFile(path))).toBe(true);
    },
  );
});

describe('options', () => {
  it('can write deflate-compressed blocks, decodable by avsc', async () => {
    const res = await simulateSurvey({ objects: 30, nights: 2, seed: 1, processes: 1, codec: 'deflate', outDir: join(dir, 'd') });
    const header = avro.extractFileHeader(res.files[0], { decode: false })!;
    expect(String(header.meta['avro.codec'])).toBe('deflate');
    let n = 0;
    for (const f of res.files) n += (await decode(f)).length;
    expect(n).toBe(res.packets);
  });

  it('rejects nonsense sizes', async () => {
    await expect(simulateSurvey({ objects: -1, nights: 2, seed: 1, outDir: join(dir, 'e') })).rejects.toThrow(/objects/);
    await expect(simulateSurvey({ objects: 5, nights: 0, seed: 1, outDir: join(dir, 'e') })).rejects.toThrow(/nights/);
  });
});
