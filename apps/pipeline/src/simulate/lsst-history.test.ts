import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { decodeAvroFile, fullHistory, type LsstPacket } from '../sources/alert-avro.ts';
import { alertRecordSizes, simulateSurvey, sizeSummary } from './index.ts';

// Real-size Rubin packets: with a Rubin history reaching back further than a year, the packets of
// long-observed objects carry a year of DiaSources and forced photometry, and never more.
describe('Rubin packets with a year of history', () => {
  let dir: string;
  const packets: LsstPacket[] = [];
  let lsstFiles: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'antares-lsst-history-'));
    const result = await simulateSurvey({ objects: 200, nights: 2, seed: 365, outDir: dir, processes: 1, lsstHistoryDays: 420 });
    lsstFiles = result.files.filter((f) => path.basename(f).startsWith('lsst_'));
    for (const file of lsstFiles) {
      for await (const record of decodeAvroFile(file))
        if ('packet' in record && record.packet.survey === 'lsst') packets.push(fullHistory(record.packet));
    }
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const mjdsOf = (p: LsstPacket) => [...p.prvDiaSources, ...p.prvDiaForcedSources].map((r) => r.midpointMjdTai as number);

  it('reaches back 12 months, not further, for objects observed over more than 6 months', () => {
    expect(packets.length).toBeGreaterThan(0);
    let longObserved = 0;
    for (const p of packets) {
      const now = p.diaSource.midpointMjdTai as number;
      const mjds = mjdsOf(p);
      for (const t of mjds) expect(t).toBeGreaterThanOrEqual(now - 365);
      for (const t of mjds) expect(t).toBeLessThan(now);
      if (mjds.length > 0 && now - Math.min(...mjds) > 182) {
        longObserved++;
        // Visits every few nights: the oldest kept point is close to the year's edge.
        expect(Math.min(...mjds)).toBeLessThan(now - 330);
        expect(p.prvDiaForcedSources.length).toBeGreaterThan(40);
      }
    }
    // The periodic variables Rubin has seen all year (transients are younger).
    expect(longObserved).toBeGreaterThanOrEqual(3);
  });

  it('writes schema 11.0 on request, which the ingestion decodes with the same rows', async () => {
    const dir11 = mkdtempSync(path.join(os.tmpdir(), 'antares-lsst-history-11-'));
    try {
      const result = await simulateSurvey({
        objects: 200,
        nights: 2,
        seed: 365,
        outDir: dir11,
        processes: 1,
        lsstHistoryDays: 420,
        lsstSchemaVersion: '11.0',
      });
      const packets11: LsstPacket[] = [];
      for (const file of result.files.filter((f) => path.basename(f).startsWith('lsst_'))) {
        for await (const record of decodeAvroFile(file))
          if ('packet' in record && record.packet.survey === 'lsst') packets11.push(fullHistory(record.packet));
      }
      expect(packets11.map((p) => p.schemaVersion)).toEqual(packets.map(() => '11.0'));
      expect(packets11.map((p) => p.diaSourceId)).toEqual(packets.map((p) => p.diaSourceId));
      expect(packets11.map((p) => p.prvDiaForcedSources.length)).toEqual(packets.map((p) => p.prvDiaForcedSources.length));
      // Counts 11.0 requires: never null there.
      for (const p of packets11) for (const row of [p.diaSource, ...p.prvDiaSources]) expect(row.trailNdata).not.toBeNull();
    } finally {
      rmSync(dir11, { recursive: true, force: true });
    }
  });

  it('makes packets of a hundred kilobytes and more, with their three cutouts of real Rubin size', async () => {
    const sizes = (await Promise.all(lsstFiles.map(alertRecordSizes))).flat();
    expect(sizes.length).toBe(packets.length);
    const summary = sizeSummary(sizes);
    // Three cutouts of 34.5-40.3 KB (image, variance, PSF), then a year of history on top.
    expect(summary.min).toBeGreaterThan(3 * 34_560);
    expect(summary.max).toBeGreaterThan(summary.min + 50_000);
    for (const p of packets) {
      expect(p.cutouts.difference?.length).toBeGreaterThan(0);
      expect(p.cutouts.science?.length).toBeGreaterThan(0);
      expect(p.cutouts.template?.length).toBeGreaterThan(0);
    }
  });
});
