import { healpixNestCenter, healpixNestPixel } from '@antares/astro';
import { contours } from 'd3-contour';
import { scaleLinear } from 'd3-scale';
import type { MultiPolygon } from 'geojson';

import type { SkyMap } from '@/features/gw-events/api/get-skymap';

import type { SkyFrame } from './sky-projection';

/**
 * A HEALPix sky map drawn on the all-sky frame: every cell of a grid over the frame takes the density
 * and credible level of the HEALPix pixel under its centre; the credible regions are the contours of
 * that grid (so they follow the pixels' edges).
 */

/** Density and credible level per NESTED pixel id (NaN where the map has no value). */
export interface SkyMapIndex {
  order: number;
  density: Float64Array;
  level: Float64Array;
  maxDensity: number;
}

/** Places each pixel by its centre (the server's list order is not relied on). */
export function indexSkyMap(map: Pick<SkyMap, 'order' | 'pixels'>): SkyMapIndex {
  const size = 12 * 4 ** map.order;
  const density = new Float64Array(size).fill(Number.NaN);
  const level = new Float64Array(size).fill(Number.NaN);
  let maxDensity = 0;
  for (const pixel of map.pixels) {
    const id = Number(healpixNestPixel(map.order, pixel.ra, pixel.dec));
    density[id] = pixel.probability_density;
    level[id] = pixel.level;
    if (pixel.probability_density > maxDensity) maxDensity = pixel.probability_density;
  }
  return { order: map.order, density, level, maxDensity };
}

/** Centre of the densest pixel (where a small region is on an all-sky map). */
export function densestPosition(index: SkyMapIndex): { ra: number; dec: number } | null {
  if (!(index.maxDensity > 0)) return null;
  return healpixNestCenter(index.order, BigInt(index.density.indexOf(index.maxDensity)));
}

export interface SkyRaster {
  cols: number;
  rows: number;
  /** Frame pixels per cell. */
  step: number;
  /** Density per cell (NaN off the sky or where the map has no value). */
  density: Float32Array;
  /** 1 - credible level per cell (0 off the sky): region "level ≤ p" is where this is ≥ 1 - p. */
  inverseLevel: Float32Array;
}

export function rasterizeSkyMap(index: SkyMapIndex, frame: SkyFrame, step: number): SkyRaster {
  const cols = Math.ceil(frame.width / step);
  const rows = Math.ceil(frame.height / step);
  const density = new Float32Array(cols * rows).fill(Number.NaN);
  const inverseLevel = new Float32Array(cols * rows);
  for (let row = 0; row < rows; row += 1) {
    for (let col = 0; col < cols; col += 1) {
      const sky = frame.toSky((col + 0.5) * step, (row + 0.5) * step);
      if (!sky) continue;
      const id = Number(healpixNestPixel(index.order, sky.ra, sky.dec));
      const cell = row * cols + col;
      density[cell] = index.density[id];
      const level = index.level[id];
      inverseLevel[cell] = Number.isFinite(level) ? 1 - level : 0;
    }
  }
  return { cols, rows, step, density, inverseLevel };
}

export interface CredibleContour {
  /** Credible level, 0..1 (0.5 for the 50% region). */
  level: number;
  /** In frame pixels. */
  geometry: MultiPolygon;
}

/** The outlines of the credible regions "level ≤ p" for each p, in frame pixels. */
export function credibleContours(raster: SkyRaster, levels: readonly number[]): CredibleContour[] {
  const generator = contours()
    .size([raster.cols, raster.rows])
    .thresholds(levels.map((p) => 1 - p));
  // d3-contour sorts its thresholds: match each outline to its level by value.
  const shapes = generator(Array.from(raster.inverseLevel));
  return levels.map((level) => {
    const shape = shapes.find((s) => Math.abs(s.value - (1 - level)) < 1e-9);
    const coordinates = (shape?.coordinates ?? []).map((polygon) =>
      polygon.map((ring) => ring.map(([x, y]) => [x * raster.step, y * raster.step])),
    );
    return { level, geometry: { type: 'MultiPolygon', coordinates } };
  });
}

/** The density colour ramp, light (no probability) to dark (densest). */
export const DENSITY_COLOURS = ['#fbfbf7', '#fde3bf', '#fbb07a', '#ec6a4f', '#c0325a', '#7c1d6f', '#3d0b5a'] as const;

/** 256 RGB triples along the ramp. */
export function colourTable(colours: readonly string[] = DENSITY_COLOURS): Uint8Array {
  const scale = scaleLinear<string>()
    .domain(colours.map((_, i) => i / (colours.length - 1)))
    .range(colours as string[]);
  const table = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i += 1) {
    const [r, g, b] = (/rgb\((\d+), (\d+), (\d+)\)/.exec(scale(i / 255)) ?? ['', '0', '0', '0']).slice(1).map(Number);
    table.set([r, g, b], i * 3);
  }
  return table;
}

/** RGBA bytes of the raster (one per cell) shaded by density, linear from 0 to the map's maximum; off-sky cells transparent. */
export function paintDensity(raster: SkyRaster, maxDensity: number, table: Uint8Array): Uint8ClampedArray {
  const pixels = new Uint8ClampedArray(raster.cols * raster.rows * 4);
  for (let cell = 0; cell < raster.density.length; cell += 1) {
    const value = raster.density[cell];
    if (Number.isNaN(value)) continue;
    const t = maxDensity > 0 ? Math.max(0, Math.min(1, value / maxDensity)) : 0;
    const k = Math.round(t * 255) * 3;
    pixels.set([table[k], table[k + 1], table[k + 2], 255], cell * 4);
  }
  return pixels;
}
