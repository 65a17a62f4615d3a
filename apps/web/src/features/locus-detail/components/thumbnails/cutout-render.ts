import { normalizeImage, percentileInterval, type StretchName, zscale } from '@antares/astro';

import { type ColormapName, colormapTable } from '@/lib/colormaps';

/**
 * How a FITS cutout is drawn in the browser, from its original pixel values. Each choice is an
 * astropy.visualization interval and stretch, so the same picture can be computed outside the
 * browser: zscale is ZScaleInterval with LinearStretch; linear, log and asinh use
 * PercentileInterval(99.5) (robust to a few hot pixels) with LinearStretch, LogStretch(a=1000) and
 * AsinhStretch(a=0.1). Levels are rounded to 8 bits as the thumbnails are.
 */
export type CutoutStretch = 'zscale' | 'linear' | 'log' | 'asinh';

export const CUTOUT_STRETCHES: { value: CutoutStretch; label: string; astropy: string }[] = [
  { value: 'zscale', label: 'zscale', astropy: 'ZScaleInterval() + LinearStretch()' },
  { value: 'asinh', label: 'asinh', astropy: 'PercentileInterval(99.5) + AsinhStretch(a=0.1)' },
  { value: 'linear', label: 'linear', astropy: 'PercentileInterval(99.5) + LinearStretch()' },
  { value: 'log', label: 'log', astropy: 'PercentileInterval(99.5) + LogStretch(a=1000)' },
];

export const PERCENTILE = 99.5;

/** The 8-bit display level of every pixel (-1 for a blank pixel), in file order. */
export function cutoutLevels(data: ArrayLike<number>, stretchName: CutoutStretch): Int16Array {
  const interval = stretchName === 'zscale' ? zscale(data) : percentileInterval(data, PERCENTILE);
  const levels = new Int16Array(data.length).fill(-1);
  if (!interval) return levels;
  const curve: StretchName = stretchName === 'zscale' ? 'linear' : stretchName;
  const normalized = normalizeImage(data, interval, curve);
  for (let i = 0; i < normalized.length; i++) if (!Number.isNaN(normalized[i])) levels[i] = Math.round(normalized[i] * 255);
  return levels;
}

/** RGBA pixels for a canvas: levels through the colour map (inverted on request); blank pixels transparent black. */
export function cutoutRgba(levels: Int16Array, colormap: ColormapName, invert: boolean): Uint8ClampedArray<ArrayBuffer> {
  const table = colormapTable(colormap);
  const rgba = new Uint8ClampedArray(levels.length * 4);
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i];
    if (level < 0) continue;
    const k = invert ? 255 - level : level;
    rgba[i * 4] = table[k * 3];
    rgba[i * 4 + 1] = table[k * 3 + 1];
    rgba[i * 4 + 2] = table[k * 3 + 2];
    rgba[i * 4 + 3] = 255;
  }
  return rgba;
}
