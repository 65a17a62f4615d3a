// Credible regions of a gravitational-wave sky map (probability per pixel of a HEALPix map): the
// region of credible level p is the smallest set of highest-density pixels holding probability p.
import { healpixFromUniq, healpixNestPixelNumber, healpixPixelAreaSr } from './healpix.ts';

const SQ_DEG_PER_SR = (180 / Math.PI) ** 2;
/** Pixel ids of maps are kept as numbers: exact up to order 24 (no real sky map goes beyond ~12). */
const MAX_MAP_ORDER = 24;

/** Where a position sits in a sky map: its credible level (0..1) and that region's area. */
export interface CredibleRegion {
  level: number;
  areaDeg2: number;
}

interface Layer {
  order: number;
  /** Index into the map's pixels of the pixel with this NESTED id at this order, if the map has it. */
  find(pixel: number): number | undefined;
}

/**
 * A HEALPix sky map (single-order NESTED or multi-order NUNIQ) with the credible level and cumulative
 * area of every pixel computed once, so a position is placed in one lookup per order of the map.
 */
export class CredibleSkyMap {
  private readonly layers: Layer[] = [];
  private readonly levels: Float64Array;
  private readonly areas: Float64Array;
  /** Cumulative probability and area from the densest pixel down. */
  private readonly cumulativeProbability: Float64Array;
  private readonly cumulativeArea: Float64Array;
  readonly totalProbability: number;
  readonly pixelCount: number;
  /** Index of the densest pixel. */
  private readonly densest: number;
  private readonly orderOf: Uint8Array;
  private readonly pixelOf: Float64Array;
  private readonly density: Float64Array;

  constructor(orders: ArrayLike<number>, pixels: ArrayLike<number>, densityPerSr: ArrayLike<number>) {
    const n = densityPerSr.length;
    if (orders.length !== n || pixels.length !== n) throw new Error('sky map: one order, pixel and density per pixel');
    this.pixelCount = n;
    this.orderOf = Uint8Array.from(orders);
    this.pixelOf = Float64Array.from(pixels);
    const density = Float64Array.from(densityPerSr, (d) => (d > 0 ? d : 0));
    this.density = density;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => density[b] - density[a]);
    this.levels = new Float64Array(n);
    this.areas = new Float64Array(n);
    this.cumulativeProbability = new Float64Array(n);
    this.cumulativeArea = new Float64Array(n);
    const areaSr = new Float64Array(MAX_MAP_ORDER + 1).map((_, o) => healpixPixelAreaSr(o));
    let probability = 0;
    let area = 0;
    for (let k = 0; k < n; k++) {
      const i = order[k];
      const o = this.orderOf[i];
      if (o > MAX_MAP_ORDER) throw new Error(`sky map: order ${o} is beyond ${MAX_MAP_ORDER}`);
      probability += density[i] * areaSr[o];
      area += areaSr[o] * SQ_DEG_PER_SR;
      this.levels[i] = probability;
      this.areas[i] = area;
      this.cumulativeProbability[k] = probability;
      this.cumulativeArea[k] = area;
    }
    this.totalProbability = probability;
    this.densest = n > 0 ? order[0] : -1;
    this.buildLayers();
  }

  private buildLayers(): void {
    const byOrder = new Map<number, number[]>();
    for (let i = 0; i < this.pixelCount; i++) {
      const list = byOrder.get(this.orderOf[i]);
      if (list) list.push(i);
      else byOrder.set(this.orderOf[i], [i]);
    }
    for (const [order, indices] of [...byOrder].sort((a, b) => a[0] - b[0])) {
      const full = 12 * 4 ** order;
      const dense = indices.length === full && indices.every((i, k) => this.pixelOf[i] === k);
      if (dense) {
        const base = indices[0];
        this.layers.push({ order, find: (pixel) => base + pixel });
      } else {
        const index = new Map<number, number>(indices.map((i) => [this.pixelOf[i], i]));
        this.layers.push({ order, find: (pixel) => index.get(pixel) });
      }
    }
  }

  /** A single-order NESTED map of probabilities per pixel (the FITS PROB column). */
  static fromNested(order: number, probability: ArrayLike<number>): CredibleSkyMap {
    const area = healpixPixelAreaSr(order);
    const n = probability.length;
    return new CredibleSkyMap(
      new Uint8Array(n).fill(order),
      Float64Array.from({ length: n }, (_, i) => i),
      Float64Array.from(probability, (p) => p / area),
    );
  }

  /** A multi-order map: NUNIQ ids with a probability density per steradian (the FITS PROBDENSITY column). */
  static fromUniq(uniq: ArrayLike<number | bigint>, densityPerSr: ArrayLike<number>): CredibleSkyMap {
    const orders = new Uint8Array(uniq.length);
    const pixels = new Float64Array(uniq.length);
    for (let i = 0; i < uniq.length; i++) {
      const { order, pixel } = healpixFromUniq(BigInt(uniq[i]));
      orders[i] = order;
      pixels[i] = Number(pixel);
    }
    return new CredibleSkyMap(orders, pixels, densityPerSr);
  }

  /** The credible level (0..1, of the map's total probability) and region area at a position. */
  regionAt(raDeg: number, decDeg: number): CredibleRegion | null {
    for (const layer of this.layers) {
      const i = layer.find(healpixNestPixelNumber(layer.order, raDeg, decDeg));
      if (i !== undefined) return { level: this.levels[i] / this.totalProbability, areaDeg2: this.areas[i] };
    }
    return null;
  }

  /** Probability density at a position, per square degree (of the map's total). */
  densityAt(raDeg: number, decDeg: number): number {
    for (const layer of this.layers) {
      const i = layer.find(healpixNestPixelNumber(layer.order, raDeg, decDeg));
      if (i !== undefined) return this.density[i] / SQ_DEG_PER_SR / this.totalProbability;
    }
    return 0;
  }

  /** Area (deg²) of the smallest region holding probability `level` (0..1). */
  areaOf(level: number): number {
    const target = level * this.totalProbability;
    let lo = 0;
    let hi = this.pixelCount; // first k whose cumulative probability exceeds the target
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulativeProbability[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    return lo === 0 ? 0 : this.cumulativeArea[lo - 1];
  }

  /** The order and NESTED pixel of the densest pixel. */
  get densestPixel(): { order: number; pixel: number } {
    return { order: this.orderOf[this.densest], pixel: this.pixelOf[this.densest] };
  }
}
