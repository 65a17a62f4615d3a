/**
 * Per-band light-curve features, named `feature_<name>_<magn|flux>_<band>` as in ANTARES
 * (definitions follow the `light-curve` feature extractor used by the real system).
 */
export interface Measurement {
  t: number;
  value: number;
  error: number;
}

export type FeatureSet = Record<string, number>;

/**
 * Features of one series; a feature that needs more points than there are is left out. Plain loops
 * over typed arrays: a locus is summarized at every batch that brings it alerts.
 */
export function seriesFeatures(points: Measurement[]): FeatureSet {
  const n = points.length;
  const features: FeatureSet = {};
  if (n < 2) return features;
  const values = new Float64Array(n);
  const weights = new Float64Array(n);
  let sum = 0;
  let weightSum = 0;
  for (let i = 0; i < n; i++) {
    const p = points[i];
    values[i] = p.value;
    weights[i] = p.error > 0 ? 1 / (p.error * p.error) : 1;
    sum += p.value;
    weightSum += weights[i];
  }
  const sorted = values.slice().sort();
  const min = sorted[0];
  const max = sorted[n - 1];
  const median = quantile(sorted, 0.5);
  const mean = sum / n;
  let weightedSum = 0;
  let m2 = 0;
  for (let i = 0; i < n; i++) {
    weightedSum += values[i] * weights[i];
    const d = values[i] - mean;
    m2 += d * d;
  }
  const weightedMean = weightedSum / weightSum;
  const std = Math.sqrt(m2 / (n - 1));

  features.amplitude = (max - min) / 2;
  features.mean = mean;
  features.median = median;
  features.weighted_mean = weightedMean;
  features.standard_deviation = std;
  features.percent_amplitude = Math.max(max - median, median - min);
  let beyond = 0;
  if (std > 0) for (let i = 0; i < n; i++) if (Math.abs(values[i] - mean) > std) beyond++;
  features.beyond_1_std = beyond / n;
  features.stetson_k = stetsonK(points, weightedMean);
  const slope = linearFitSlope(points, weights);
  if (slope !== null) features.linear_fit_slope = slope;
  // The third and fourth powers multiplied out: Math.pow (what ** compiles to) took most of the time.
  if (n >= 3 && std > 0) {
    // Adjusted Fisher-Pearson skewness (G1), as pandas/light-curve compute it.
    let m3 = 0;
    for (let i = 0; i < n; i++) {
      const d = values[i] - mean;
      m3 += d * d * d;
    }
    features.skew = (n / ((n - 1) * (n - 2))) * (m3 / std ** 3);
  }
  if (n >= 4 && std > 0) {
    // Unbiased excess kurtosis (G2).
    let m4 = 0;
    for (let i = 0; i < n; i++) {
      const d = values[i] - mean;
      m4 += d * d * (d * d);
    }
    features.kurtosis = ((n * (n + 1)) / ((n - 1) * (n - 2) * (n - 3))) * (m4 / std ** 4) - (3 * (n - 1) ** 2) / ((n - 2) * (n - 3));
  }
  return features;
}

function stetsonK(points: Measurement[], weightedMean: number): number {
  const n = points.length;
  const scale = Math.sqrt(n / (n - 1));
  let sumAbs = 0;
  let sumSquares = 0;
  for (const p of points) {
    const delta = (scale * (p.value - weightedMean)) / (p.error > 0 ? p.error : 1);
    sumAbs += Math.abs(delta);
    sumSquares += delta * delta;
  }
  return sumSquares > 0 ? sumAbs / Math.sqrt(n * sumSquares) : 1;
}

/** Weighted least-squares slope of value against time (per day); null when all times are equal. */
function linearFitSlope(points: Measurement[], weights: Float64Array): number | null {
  let sw = 0,
    st = 0,
    sv = 0,
    stt = 0,
    stv = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const w = weights[i];
    sw += w;
    st += w * p.t;
    sv += w * p.value;
    stt += w * p.t * p.t;
    stv += w * p.t * p.value;
  }
  const denominator = sw * stt - st * st;
  if (Math.abs(denominator) < 1e-12 * Math.max(1, sw * stt)) return null;
  return (sw * stv - st * sv) / denominator;
}

function quantile(sorted: Float64Array, q: number): number {
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const fraction = position - lower;
  return lower + 1 < sorted.length ? sorted[lower] * (1 - fraction) + sorted[lower + 1] * fraction : sorted[lower];
}

const AB_ZERO_POINT_UJY = 23.9;

/** Magnitude and flux (microjansky) features of every band with at least two detections. */
export function lightcurveFeatures(detections: Array<{ mjd: number; band: string; mag: number; magerr: number }>): FeatureSet {
  const byBand = new Map<string, Measurement[]>();
  for (const d of detections) {
    const list = byBand.get(d.band) ?? [];
    list.push({ t: d.mjd, value: d.mag, error: d.magerr });
    byBand.set(d.band, list);
  }
  const out: FeatureSet = {};
  for (const [band, magnitudes] of byBand) {
    const bandKey = band.toLowerCase();
    const fluxes = magnitudes.map((m) => {
      const flux = 10 ** (-0.4 * (m.value - AB_ZERO_POINT_UJY));
      return { t: m.t, value: flux, error: (flux * Math.LN10 * m.error) / 2.5 };
    });
    for (const [name, value] of Object.entries(seriesFeatures(magnitudes))) {
      if (Number.isFinite(value)) out[`feature_${name}_magn_${bandKey}`] = value;
    }
    for (const [name, value] of Object.entries(seriesFeatures(fluxes))) {
      if (Number.isFinite(value)) out[`feature_${name}_flux_${bandKey}`] = value;
    }
  }
  return out;
}
