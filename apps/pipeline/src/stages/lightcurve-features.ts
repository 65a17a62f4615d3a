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

/** Features of one series; a feature that needs more points than there are is left out. */
export function seriesFeatures(points: Measurement[]): FeatureSet {
  const n = points.length;
  const features: FeatureSet = {};
  if (n < 2) return features;
  const values = points.map((p) => p.value);
  const sorted = [...values].sort((a, b) => a - b);
  const min = sorted[0];
  const max = sorted[n - 1];
  const median = quantile(sorted, 0.5);
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const weights = points.map((p) => (p.error > 0 ? 1 / (p.error * p.error) : 1));
  const weightSum = weights.reduce((s, w) => s + w, 0);
  const weightedMean = values.reduce((s, v, i) => s + v * weights[i], 0) / weightSum;
  const deviations = values.map((v) => v - mean);
  const m2 = deviations.reduce((s, d) => s + d * d, 0);
  const std = Math.sqrt(m2 / (n - 1));

  features.amplitude = (max - min) / 2;
  features.mean = mean;
  features.median = median;
  features.weighted_mean = weightedMean;
  features.standard_deviation = std;
  features.percent_amplitude = Math.max(max - median, median - min);
  features.beyond_1_std = std > 0 ? values.filter((v) => Math.abs(v - mean) > std).length / n : 0;
  features.stetson_k = stetsonK(points, weightedMean);
  const slope = linearFitSlope(points, weights);
  if (slope !== null) features.linear_fit_slope = slope;
  if (n >= 3 && std > 0) {
    // Adjusted Fisher-Pearson skewness (G1), as pandas/light-curve compute it.
    const m3 = deviations.reduce((s, d) => s + d ** 3, 0);
    features.skew = (n / ((n - 1) * (n - 2))) * (m3 / std ** 3);
  }
  if (n >= 4 && std > 0) {
    // Unbiased excess kurtosis (G2).
    const m4 = deviations.reduce((s, d) => s + d ** 4, 0);
    features.kurtosis = ((n * (n + 1)) / ((n - 1) * (n - 2) * (n - 3))) * (m4 / std ** 4) - (3 * (n - 1) ** 2) / ((n - 2) * (n - 3));
  }
  return features;
}

function stetsonK(points: Measurement[], weightedMean: number): number {
  const n = points.length;
  const scale = Math.sqrt(n / (n - 1));
  const deltas = points.map((p) => (scale * (p.value - weightedMean)) / (p.error > 0 ? p.error : 1));
  const sumAbs = deltas.reduce((s, d) => s + Math.abs(d), 0);
  const sumSquares = deltas.reduce((s, d) => s + d * d, 0);
  return sumSquares > 0 ? sumAbs / Math.sqrt(n * sumSquares) : 1;
}

/** Weighted least-squares slope of value against time (per day); null when all times are equal. */
function linearFitSlope(points: Measurement[], weights: number[]): number | null {
  let sw = 0,
    st = 0,
    sv = 0,
    stt = 0,
    stv = 0;
  points.forEach((p, i) => {
    const w = weights[i];
    sw += w;
    st += w * p.t;
    sv += w * p.value;
    stt += w * p.t * p.t;
    stv += w * p.t * p.value;
  });
  const denominator = sw * stt - st * st;
  if (Math.abs(denominator) < 1e-12 * Math.max(1, sw * stt)) return null;
  return (sw * stv - st * sv) / denominator;
}

function quantile(sorted: number[], q: number): number {
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
