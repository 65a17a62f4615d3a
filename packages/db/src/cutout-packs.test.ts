import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CutoutPacks, CutoutPackUnavailable } from './cutout-packs.ts';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'antares-packs-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('CutoutPacks', () => {
  it('writes a batch of cutouts into one pack and reads each back byte for byte', async () => {
    // More buffers than one writev takes, of varied sizes, some views into larger buffers.
    const cutouts: Uint8Array[] = Array.from({ length: 1300 }, (_, i) => randomBytes(1 + (i % 13) * 517).subarray(i % 3 === 0 ? 0 : 1));
    cutouts.push(new Uint8Array(0));
    const packs = new CutoutPacks(dir);
    const placed = await packs.write(cutouts);
    expect(new Set(placed.map((p) => p.pack)).size).toBe(1);
    expect(placed[0]!.pack).toMatch(/^\d{4}-\d{2}-\d{2}\/[0-9a-f-]{36}\.cutouts$/);
    const file = readFileSync(path.join(dir, placed[0]!.pack));
    expect(file.length).toBe(cutouts.reduce((sum, c) => sum + c.length, 0));
    for (const [i, cutout] of cutouts.entries()) {
      expect(placed[i]!.length).toBe(cutout.length);
      expect(Buffer.from(await packs.read(placed[i]!)).equals(Buffer.from(cutout))).toBe(true);
    }
  });

  it('gives every batch a pack of its own', async () => {
    const packs = new CutoutPacks(dir);
    const [a] = await packs.write([randomBytes(10)]);
    const [b] = await packs.write([randomBytes(10)]);
    expect(a!.pack).not.toBe(b!.pack);
    expect(readdirSync(path.join(dir, path.dirname(a!.pack)))).toHaveLength(2);
  });

  it('refuses, with CutoutPackUnavailable, a missing pack, one cut short and one outside its folder', async () => {
    const packs = new CutoutPacks(dir);
    const [placed] = await packs.write([randomBytes(5000)]);
    truncateSync(path.join(dir, placed!.pack), 4000);
    await expect(packs.read(placed!)).rejects.toThrow(
      new CutoutPackUnavailable(`its cutout pack "${placed!.pack}" is shorter than recorded`),
    );
    await expect(packs.read({ ...placed!, pack: '2026-01-01/none.cutouts' })).rejects.toThrow(
      new CutoutPackUnavailable('its cutout pack "2026-01-01/none.cutouts" cannot be opened (ENOENT)'),
    );
    await expect(packs.read({ pack: '../outside.cutouts', offset: 0, length: 1 })).rejects.toBeInstanceOf(CutoutPackUnavailable);
  });
});
