import { describe, expect, it } from 'vitest';

import { minMaxInterval, normalizeImage, percentileInterval, stretch, type StretchName, zscale } from './image-stretch.ts';
import { astropyMissing, runPython } from './test-python.ts';
import { randomGenerator } from './test-random.ts';

/** A 63x63 cutout-like image: sky noise, a star, a few hot pixels and NaNs. */
function cutout(seed: number): Float32Array {
  const rand = randomGenerator(seed);
  const image = new Float32Array(63 * 63);
  for (let y = 0; y < 63; y++) {
    for (let x = 0; x < 63; x++) {
      const r2 = (x - 31) ** 2 + (y - 30) ** 2;
      image[y * 63 + x] = 150 + 12 * (rand() + rand() + rand() - 1.5) + 5000 * Math.exp(-r2 / 8);
    }
  }
  image[5] = 65000;
  image[100] = -300;
  image[200] = NaN;
  return image;
}

describe('image intervals and stretches', () => {
  it('computes percentile and min-max intervals over finite pixels', () => {
    const values = [NaN, 4, 1, 3, 2, Infinity];
    expect(minMaxInterval(values)).toEqual([1, 4]);
    // numpy.percentile([1, 2, 3, 4], [25, 75]) = [1.75, 3.25]
    expect(percentileInterval(values, 50)).toEqual([1.75, 3.25]);
    expect(percentileInterval([NaN], 99)).toBeNull();
    expect(minMaxInterval([])).toBeNull();
  });

  it('normalises, clips and stretches; flat images are mid-grey, NaN stays NaN', () => {
    const out = normalizeImage([0, 5, 10, 20, NaN], [0, 10], 'linear');
    expect(Array.from(out.slice(0, 4))).toEqual([0, 0.5, 1, 1]);
    expect(out[4]).toBeNaN();
    expect(Array.from(normalizeImage([3, 3], [3, 3], 'log'))).toEqual([0.5, 0.5]);
    for (const name of ['linear', 'log', 'asinh', 'sqrt'] as StretchName[]) {
      expect(stretch(name, 0)).toBeCloseTo(0, 12);
      expect(stretch(name, 1)).toBeCloseTo(1, 12);
    }
  });

  it.skipIf(astropyMissing !== null)(
    'agrees with astropy ZScaleInterval, PercentileInterval and the Linear/Log/Asinh/Sqrt stretches',
    () => {
      const images = [cutout(1), cutout(2), new Float32Array(63 * 63).map((_, i) => (i % 97) * 0.5 - 10)];
      const expected = runPython<{ zscale: number[][]; percentile: number[][]; stretched: Record<string, number[]> }>(
        [
          'import numpy as np',
          'from astropy.visualization import ZScaleInterval, PercentileInterval, LinearStretch, LogStretch, AsinhStretch, SqrtStretch',
          "imgs = [np.array([np.nan if v is None else v for v in im], dtype=np.float32) for im in data['images']]",
          'z = [list(ZScaleInterval().get_limits(im)) for im in imgs]',
          'p = [list(PercentileInterval(99.5).get_limits(im)) for im in imgs]',
          "x = np.array(data['x'])",
          "s = {'linear': LinearStretch()(x).tolist(), 'log': LogStretch()(x).tolist(), 'asinh': AsinhStretch()(x).tolist(), 'sqrt': SqrtStretch()(x).tolist()}",
          "print(json.dumps({'zscale': [[float(a), float(b)] for a, b in z], 'percentile': [[float(a), float(b)] for a, b in p], 'stretched': s}))",
        ].join('\n'),
        // JSON has no NaN: send null for it.
        { images: images.map((im) => Array.from(im, (v) => (Number.isFinite(v) ? v : null))), x: [0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.9, 1] },
      );
      images.forEach((image, i) => {
        const [lo, hi] = zscale(image)!;
        expect(lo).toBeCloseTo(expected.zscale[i][0], 3);
        expect(hi).toBeCloseTo(expected.zscale[i][1], 3);
        const [plo, phi] = percentileInterval(image, 99.5)!;
        expect(plo).toBeCloseTo(expected.percentile[i][0], 3);
        expect(phi).toBeCloseTo(expected.percentile[i][1], 3);
      });
      for (const [name, values] of Object.entries(expected.stretched)) {
        [0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.9, 1].forEach((x, k) => expect(stretch(name as StretchName, x)).toBeCloseTo(values[k], 10));
      }
    },
  );
});
