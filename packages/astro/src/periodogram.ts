/**
 * The Lomb-Scargle periodogram of an unevenly sampled time series, in the generalised form with a
 * floating mean and measurement weights (Zechmeister & Kürster 2009): what astropy's
 * `LombScargle(t, y, dy)` computes by default (fit_mean=True, center_data=True,
 * normalization='standard'), so a power of 1 is a perfect sinusoid fit and 0 none at all.
 */

export interface PeriodogramInput {
  /** Times (days, e.g. MJD). */
  t: ArrayLike<number>;
  /** Values (magnitudes or fluxes). */
  y: ArrayLike<number>;
  /** Uncertainties of y; absent or non-positive ones weigh like the median of the others (or all alike). */
  dy?: ArrayLike<number | undefined>;
}

export interface FrequencyGrid {
  /** Cycles per day, ascending, evenly spaced. */
  frequencies: Float64Array;
}

export interface GridOptions {
  /** Grid points per periodogram peak width (1 / baseline). astropy's default is 5. */
  samplesPerPeak?: number;
  /** The highest frequency: default astropy's heuristic (5x the mean Nyquist), at least MIN_TOP_FREQUENCY. */
  maximumFrequency?: number;
  /** The lowest frequency: default half a grid step, as astropy's autofrequency. */
  minimumFrequency?: number;
  /** Cap on the number of frequencies (the work is points x frequencies). */
  maximumCount?: number;
}

/**
 * Surveys sample once or twice a night, so astropy's "mean Nyquist" heuristic alone would stop at
 * periods of days; short-period variables (RR Lyrae at 0.2-1 d, contact binaries) need the grid
 * to reach 10 cycles a day (2.4 h periods).
 */
export const MIN_TOP_FREQUENCY = 10;
const DEFAULT_MAX_COUNT = 60_000;

/** The evenly spaced frequency grid astropy's `autofrequency` builds (with the floor above on its top). */
export function frequencyGrid(t: ArrayLike<number>, options: GridOptions = {}): FrequencyGrid {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < t.length; i++) {
    lo = Math.min(lo, t[i]);
    hi = Math.max(hi, t[i]);
  }
  const baseline = hi - lo;
  if (!(baseline > 0)) return { frequencies: new Float64Array(0) };
  const samplesPerPeak = options.samplesPerPeak ?? 5;
  let step = 1 / (baseline * samplesPerPeak);
  const fMin = options.minimumFrequency ?? step / 2;
  const fMax = options.maximumFrequency ?? Math.max(fMin + 5 * ((0.5 * t.length) / baseline), MIN_TOP_FREQUENCY);
  let count = 1 + Math.round((fMax - fMin) / step);
  const cap = options.maximumCount ?? DEFAULT_MAX_COUNT;
  if (count > cap) {
    // Coarser than asked rather than unbounded work; still several samples per peak for any real baseline.
    count = cap;
    step = (fMax - fMin) / (cap - 1);
  }
  const frequencies = new Float64Array(Math.max(count, 0));
  for (let k = 0; k < frequencies.length; k++) frequencies[k] = fMin + k * step;
  return { frequencies };
}

/** Normalised weights 1/dy^2 (summing to 1). */
function weightsOf(n: number, dy: PeriodogramInput['dy']): Float64Array {
  const w = new Float64Array(n);
  const usable: number[] = [];
  for (let i = 0; i < n; i++) {
    const d = dy?.[i];
    if (typeof d === 'number' && Number.isFinite(d) && d > 0) usable.push(d);
  }
  usable.sort((a, b) => a - b);
  const fallback = usable.length ? usable[Math.floor(usable.length / 2)] : 1;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const d = dy?.[i];
    const sigma = typeof d === 'number' && Number.isFinite(d) && d > 0 ? d : fallback;
    w[i] = 1 / (sigma * sigma);
    sum += w[i];
  }
  for (let i = 0; i < n; i++) w[i] /= sum;
  return w;
}

/**
 * Power at each frequency (cycles per unit of t). The sines and cosines of an evenly spaced grid
 * are advanced by rotation (one multiply per point and frequency instead of a sin and a cos); they
 * are recomputed exactly every 512 steps so rounding never accumulates.
 */
export function lombScargle(input: PeriodogramInput, frequencies: ArrayLike<number>): Float64Array {
  const n = input.t.length;
  const power = new Float64Array(frequencies.length);
  if (n < 3 || frequencies.length === 0) return power;
  const w = weightsOf(n, input.dy);
  const t0 = input.t[0];
  const t = new Float64Array(n);
  const y = new Float64Array(n);
  let mean = 0;
  for (let i = 0; i < n; i++) {
    t[i] = input.t[i] - t0; // shifting time changes no power, and keeps the phases small
    mean += w[i] * input.y[i];
  }
  let yy = 0;
  for (let i = 0; i < n; i++) {
    y[i] = input.y[i] - mean;
    yy += w[i] * y[i] * y[i];
  }
  if (!(yy > 0)) return power;
  const even = frequencies.length > 1 && isEvenlySpaced(frequencies);
  const step = even ? frequencies[1] - frequencies[0] : 0;
  const cos = new Float64Array(n);
  const sin = new Float64Array(n);
  const cosStep = new Float64Array(n);
  const sinStep = new Float64Array(n);
  if (even) {
    for (let i = 0; i < n; i++) {
      cosStep[i] = Math.cos(2 * Math.PI * step * t[i]);
      sinStep[i] = Math.sin(2 * Math.PI * step * t[i]);
    }
  }
  for (let k = 0; k < frequencies.length; k++) {
    if (!even || k % 512 === 0) {
      const omega = 2 * Math.PI * frequencies[k];
      for (let i = 0; i < n; i++) {
        cos[i] = Math.cos(omega * t[i]);
        sin[i] = Math.sin(omega * t[i]);
      }
    }
    // Weighted sums; y is centred so sum(w y) = 0.
    let C = 0,
      S = 0,
      YC = 0,
      YS = 0,
      CC = 0,
      CS = 0;
    for (let i = 0; i < n; i++) {
      const wi = w[i];
      const c = cos[i];
      const s = sin[i];
      C += wi * c;
      S += wi * s;
      YC += wi * y[i] * c;
      YS += wi * y[i] * s;
      CC += wi * c * c;
      CS += wi * c * s;
    }
    let SS = 1 - CC;
    CC -= C * C;
    SS -= S * S;
    CS -= C * S;
    const D = CC * SS - CS * CS;
    power[k] = D > 0 ? (SS * YC * YC + CC * YS * YS - 2 * CS * YC * YS) / (yy * D) : 0;
    if (even) {
      for (let i = 0; i < n; i++) {
        const c = cos[i];
        cos[i] = c * cosStep[i] - sin[i] * sinStep[i];
        sin[i] = sin[i] * cosStep[i] + c * sinStep[i];
      }
    }
  }
  return power;
}

function isEvenlySpaced(f: ArrayLike<number>): boolean {
  const step = f[1] - f[0];
  return step > 0 && Math.abs(f[f.length - 1] - f[0] - step * (f.length - 1)) <= 1e-9 * Math.abs(f[f.length - 1]);
}

export interface PeriodogramResult {
  frequencies: Float64Array;
  power: Float64Array;
  /**
   * The frequency of the highest peak (cycles per day) among those of at least two cycles over the
   * baseline, refined by a parabola through its neighbours.
   */
  bestFrequency: number;
  bestPeriod: number;
  bestPower: number;
}

/** The periodogram on the automatic grid and its highest peak; null with fewer than 3 points or no baseline. */
export function periodogram(input: PeriodogramInput, options: GridOptions = {}): PeriodogramResult | null {
  const { frequencies } = frequencyGrid(input.t, options);
  if (input.t.length < 3 || frequencies.length === 0) return null;
  const power = lombScargle(input, frequencies);
  // A period is evidenced only if the data cover two cycles of it: the highest peak is looked for
  // at frequencies of at least 2 / baseline (a transient's slow trend otherwise wins at the bottom).
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < input.t.length; i++) {
    lo = Math.min(lo, input.t[i]);
    hi = Math.max(hi, input.t[i]);
  }
  const floor = 2 / (hi - lo);
  let best = frequencies.findIndex((f) => f >= floor);
  if (best === -1) best = 0;
  for (let k = best + 1; k < power.length; k++) if (power[k] > power[best]) best = k;
  let bestFrequency = frequencies[best];
  if (best > 0 && best < power.length - 1) {
    // The grid samples a peak ~5 times; the vertex of the parabola through three samples is the
    // peak's centre to a small fraction of a step.
    const [a, b, c] = [power[best - 1], power[best], power[best + 1]];
    const denominator = a - 2 * b + c;
    if (denominator < 0) bestFrequency += ((0.5 * (a - c)) / denominator) * (frequencies[best + 1] - frequencies[best]);
  }
  return { frequencies, power, bestFrequency, bestPeriod: 1 / bestFrequency, bestPower: power[best] };
}
