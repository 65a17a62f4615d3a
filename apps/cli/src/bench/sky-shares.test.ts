import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type AlertPacket, decodeAvroFile, expandInputs } from '@antares/pipeline';
import { alertRecordSizes, simulateSurvey } from '@antares/pipeline/simulate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { shareOf, skyShareFiles } from './sky-shares.ts';

describe('night files shared out by sky', () => {
  let survey: string;
  let files: string[];

  beforeAll(async () => {
    survey = path.join(mkdtempSync(path.join(os.tmpdir(), 'antares-sky-shares-')), 'survey');
    await simulateSurvey({ objects: 40, nights: 2, seed: 7, outDir: survey, processes: 1, lsstHistoryDays: 30 });
    files = expandInputs([survey]);
  }, 120_000);
  afterAll(() => {
    if (survey) rmSync(path.dirname(survey), { recursive: true, force: true });
  });

  it("gives each worker every night's packets in its range of right ascension, as files ingestion reads, none lost", async () => {
    expect(files.some((f) => path.basename(f).startsWith('lsst_'))).toBe(true);
    const shares = await skyShareFiles(files, 3);
    expect(shares).toHaveLength(3);
    for (const [w, share] of shares.entries()) {
      // Night order kept: share w's k-th file is night file k's part.
      expect(share).toHaveLength(files.length);
      for (const file of share) {
        for await (const record of decodeAvroFile(file)) {
          if (!('packet' in record)) throw new Error(`${file}: ${record.error}`);
          const ra = rightAscension(record.packet);
          expect(ra).toBeGreaterThanOrEqual(120 * w);
          expect(ra).toBeLessThan(120 * (w + 1));
        }
      }
    }
    // Every record is there once, byte for byte the same size.
    for (const [k, file] of files.entries()) {
      const parts = (await Promise.all(shares.map((share) => alertRecordSizes(share[k])))).flat();
      expect(parts.sort((a, b) => a - b)).toEqual((await alertRecordSizes(file)).sort((a, b) => a - b));
    }
    // Written once: a second call takes the files as they are.
    const written = statSync(shares[0][0]).mtimeMs;
    expect(await skyShareFiles(files, 3)).toEqual(shares);
    expect(statSync(shares[0][0]).mtimeMs).toBe(written);
  }, 120_000);

  it('puts a right ascension in its share, 360 degrees and past wrapping round to the first', () => {
    expect([0, 119.999, 120, 359.999, 360, -0.001].map((ra) => shareOf(ra, 3))).toEqual([0, 0, 1, 2, 0, 2]);
  });
});

function rightAscension(packet: AlertPacket): number {
  return (packet.survey === 'lsst' ? packet.diaSource.ra : packet.candidate.ra) as number;
}
