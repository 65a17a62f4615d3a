import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { readFitsTables } from './table.ts';

const GW = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data/skyportal/gw');

describe('FITS binary tables', () => {
  it('reads the real BAYESTAR sky map of S190425z: a NESTED HEALPix table whose probabilities sum to 1', () => {
    const [table] = readFitsTables(readFileSync(path.join(GW, 'S190425z_bayestar.fits.gz')));
    expect(table.columns).toEqual(['PROB', 'DISTMU', 'DISTSIGMA', 'DISTNORM']);
    expect(table.header).toMatchObject({ ORDERING: 'NESTED', NSIDE: 256, OBJECT: 'G330561' });
    expect(table.rows).toBe(12 * 256 * 256);
    const sum = (table.data.PROB as number[]).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 6);
  });

  it('refuses a truncated table', () => {
    const bytes = readFileSync(path.join(GW, 'S190425z_bayestar.fits.gz'));
    const raw = gunzipSync(bytes);
    expect(() => readFitsTables(raw.subarray(0, raw.length / 2))).toThrow(/truncated/);
  });
});
