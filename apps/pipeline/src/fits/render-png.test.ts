import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';

import { decodeAvroBuffer } from '../sources/alert-avro.ts';
import { writeFits } from './fits.ts';
import { renderCutoutPng, sortNumbers, zscale } from './render-png.ts';

const DATA = fileURLToPath(new URL('../../../../../shared/data', import.meta.url));
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('renderCutoutPng', () => {
  it.skipIf(!existsSync(DATA))('renders a real ZTF cutout to a 63x63 grayscale PNG', () => {
    const file = `${DATA}/ztf-avro-alert/samples/472263571115115000_v3.3_ZTF17aaajnnn.avro`;
    const [rec] = [...decodeAvroBuffer(readFileSync(file), file)];
    if (!('packet' in rec)) throw new Error(rec.error);
    for (const cut of [rec.packet.cutouts.science, rec.packet.cutouts.template, rec.packet.cutouts.difference]) {
      const png = renderCutoutPng(cut!);
      expect(png.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
      const img = PNG.sync.read(png);
      expect([img.width, img.height]).toEqual([63, 63]);
      // a robust stretch uses the range: both dark and bright pixels exist
      const grays = new Set<number>();
      for (let i = 0; i < img.data.length; i += 4) grays.add(img.data[i]);
      expect(grays.size).toBeGreaterThan(50);
    }
  });

  it('draws NaN black, survives constant images, and flips on request', () => {
    const w = 4;
    const h = 3;
    const ramp = new Float32Array(w * h).map((_, i) => i);
    ramp[0] = NaN;
    const read = (opts?: { flipVertical?: boolean }) => PNG.sync.read(renderCutoutPng(writeFits(ramp, w, h), opts));
    const plain = read();
    expect(plain.data[0]).toBe(0); // NaN pixel (row 0, col 0)
    expect(plain.data[(w * h - 1) * 4]).toBe(255); // max value
    const flipped = read({ flipVertical: true });
    // FITS row 0 ends up at the bottom when flipped
    expect(flipped.data[w * (h - 1) * 4]).toBe(0);
    expect(flipped.data[(w - 1) * 4]).toBe(255);

    const flat = PNG.sync.read(renderCutoutPng(writeFits(new Float32Array(25).fill(7), 5, 5)));
    expect(flat.data[0]).toBe(128);
    const allNaN = PNG.sync.read(renderCutoutPng(writeFits(new Float32Array(4).fill(NaN), 2, 2)));
    expect(allNaN.data[0]).toBe(0);
  });

  it('zscale matches astropy ZScaleInterval and ignores outliers', () => {
    // A ramp with two huge outliers. Reference: astropy 5.2.1 ZScaleInterval().get_limits on the
    // same values as float32 gives (85.08500490317815, 125.04500486232416).
    const v = new Float32Array(1000).map((_, i) => 100 + i * 0.01);
    v[10] = 1e6;
    v[20] = -1e6;
    const [lo, hi] = zscale(v)!;
    expect(lo).toBeCloseTo(85.085005, 4);
    expect(hi).toBeCloseTo(125.045005, 4);
    expect(zscale(new Float32Array([NaN, NaN]))).toBeNull();
  });

  it('sortNumbers sorts like TypedArray#sort', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (const n of [0, 1, 2, 15, 16, 17, 100, 1000, 4096]) {
      for (const gen of [rnd, (i: number) => i, (i: number) => -i, () => 3, (i: number) => i % 3]) {
        const a = new Float64Array(n).map((_, i) => gen(i));
        const ref = Float64Array.from(a).sort();
        expect(Array.from(sortNumbers(a))).toEqual(Array.from(ref));
      }
    }
  });
});
