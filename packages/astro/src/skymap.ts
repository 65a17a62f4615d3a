// Credible regions of a gravitational-wave sky map (probability per pixel of a HEALPix map): the
// region of credible level p is the smallest set of highest-density pixels holding probability p.
import { healpixFromUniq, healpixNestPixel, healpixPixelAreaSr, healpixUniq } from './healpix.ts';

const SQ_DEG_PER_SR = (180 / Math.PI) ** 2;

/** Where a position sits in a sky map: its credible level (0..1) and that region's area. */
export interface CredibleRegion {
  level: number;
  areaDeg2: number;
}

/**
 * A multi-order sky map (NUNIQ pixels with a probability density per steradian), with the credible
 * level and cumulative area of every pixel computed once.
 */
export class CredibleSkyMap {
  private readonly byUniq = new Map<bigint, number>();
  private readonly orders: number[];
  private readonly levels: Float64Array;
  private readonly areas: Float64Array;
  /** Pixels from the densest down, with their cumulative probability and area. */
  private readonly cumulative: Array<{ probability: number; areaDeg2: number }>;
  readonly totalProbability: number;

  constructor(uniq: bigint[], densityPerSr: ArrayLike<number>) {
    if (uniq.length !== densityPerSr.length) throw new Error('sky map: as many densities as pixels are needed');
    const orderOf = uniq.map((u) => healpixFromUniq(u).order);
    const order = [...uniq.keys()].sort((a, b) => densityPerSr[b] - densityPerSr[a]);
    this.levels = new Float64Array(uniq.length);
    this.areas = new Float64Array(uniq.length);
    this.cumulative = [];
    let probability = 0;
    let area = 0;
    for (const i of order) {
      const pixelArea = healpixPixelAreaSr(orderOf[i]);
      const density = Math.max(0, densityPerSr[i]);
      probability += density * pixelArea;
      area += pixelArea * SQ_DEG_PER_SR;
      this.levels[i] = probability;
      this.areas[i] = area;
      this.cumulative.push({ probability, areaDeg2: area });
    }
    this.totalProbability = probability;
    uniq.forEach((u, i) => this.byUniq.set(u, i));
    this.orders = [...new Set(orderOf)].sort((a, b) => a - b);
  }

  /** A single-order NESTED map of probabilities per pixel (the FITS PROB column). */
  static fromNested(order: number, probability: ArrayLike<number>): CredibleSkyMap {
    const area = healpixPixelAreaSr(order);
    const uniq = Array.from({ length: probability.length }, (_, i) => healpixUniq(order, BigInt(i)));
    return new CredibleSkyMap(uniq, Array.from(probability, (p) => p / area));
  }

  /** The credible level (0..1, normalised by the map's total) and region area at a position. */
  regionAt(raDeg: number, decDeg: number): CredibleRegion | null {
    for (const order of this.orders) {
      const i = this.byUniq.get(healpixUniq(order, healpixNestPixel(order, raDeg, decDeg)));
      if (i !== undefined) return { level: this.levels[i] / this.totalProbability, areaDeg2: this.areas[i] };
    }
    return null;
  }

  /** Area (deg²) of the smallest region holding probability `level` (0..1). */
  areaOf(level: number): number {
    const target = level * this.totalProbability;
    let area = 0;
    for (const c of this.cumulative) {
      if (c.probability > target) break;
      area = c.areaDeg2;
    }
    return area;
  }

  /** The position of the densest pixel. */
  get pixelCount(): number {
    return this.levels.length;
  }
}
