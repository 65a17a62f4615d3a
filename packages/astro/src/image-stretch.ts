/**
 * Display intervals and stretches of astronomical images, as astropy.visualization defines them:
 * an interval picks the pixel values mapped to black and white (ZScaleInterval, PercentileInterval,
 * MinMaxInterval) and a stretch maps the normalised value in [0, 1] to a display level (LinearStretch,
 * LogStretch, AsinhStretch, SqrtStretch). The pipeline renders thumbnails with zscale; the web app
 * stretches FITS cutouts in the browser with the same functions, so both agree with astropy.
 */

/**
 * In-place ascending sort of finite numbers. V8's TypedArray#sort took ~100 us for the 1000 zscale
 * samples, a third of the render time; this quicksort (median of three, insertion sort below 16)
 * takes ~25 us.
 */
export function sortNumbers(a: Float64Array): Float64Array {
  const stack: number[] = [0, a.length - 1];
  while (stack.length > 0) {
    let hi = stack.pop()!;
    let lo = stack.pop()!;
    while (hi - lo >= 16) {
      const mid = (lo + hi) >>> 1;
      // median of three -> a[mid], with a[lo] <= a[mid] <= a[hi]
      if (a[mid] < a[lo]) {
        const t = a[mid];
        a[mid] = a[lo];
        a[lo] = t;
      }
      if (a[hi] < a[lo]) {
        const t = a[hi];
        a[hi] = a[lo];
        a[lo] = t;
      }
      if (a[hi] < a[mid]) {
        const t = a[hi];
        a[hi] = a[mid];
        a[mid] = t;
      }
      const pivot = a[mid];
      let i = lo;
      let j = hi;
      while (i <= j) {
        while (a[i] < pivot) i++;
        while (a[j] > pivot) j--;
        if (i <= j) {
          const t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      // recurse (via the stack) into the smaller side, loop on the larger: O(log n) stack
      if (j - lo < hi - i) {
        stack.push(i, hi);
        hi = j;
      } else {
        stack.push(lo, j);
        lo = i;
      }
    }
    for (let k = lo + 1; k <= hi; k++) {
      const v = a[k];
      let m = k - 1;
      while (m >= lo && a[m] > v) {
        a[m + 1] = a[m];
        m--;
      }
      a[m + 1] = v;
    }
  }
  return a;
}

/**
 * zscale limits as in astropy.visualization.ZScaleInterval (nsamples=1000, contrast=0.25,
 * max_reject=0.5, min_npixels=5, krej=2.5, max_iterations=5). Ignores non-finite values.
 * Returns null when there is no finite pixel.
 */
export function zscale(values: ArrayLike<number>, nSamples = 1000, contrast = 0.25): [number, number] | null {
  let finiteCount = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) finiteCount++;
  if (finiteCount === 0) return null;
  const stride = Math.max(1, Math.floor(finiteCount / nSamples));
  const picked: number[] = [];
  for (let i = 0, k = 0; i < values.length && picked.length < nSamples; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    if (k % stride === 0) picked.push(v);
    k++;
  }
  const samples = sortNumbers(new Float64Array(picked));
  const npix = samples.length;
  let vmin = samples[0];
  let vmax = samples[npix - 1];

  const maxReject = 0.5,
    minNpixels = 5,
    krej = 2.5,
    maxIterations = 5;
  const minpix = Math.max(minNpixels, Math.floor(npix * maxReject));
  const ngrow = Math.max(1, Math.floor(npix * 0.01));
  let badpix = new Uint8Array(npix);
  let ngoodpix = npix;
  let lastNgoodpix = npix + 1;
  let slope = 0;

  for (let iter = 0; iter < maxIterations; iter++) {
    if (ngoodpix >= lastNgoodpix || ngoodpix < minpix) break;
    // Weighted least-squares line through (index, sample) over the good pixels.
    let sw = 0,
      sx = 0,
      sy = 0,
      sxx = 0,
      sxy = 0;
    for (let i = 0; i < npix; i++) {
      if (badpix[i]) continue;
      sw++;
      sx += i;
      sy += samples[i];
      sxx += i * i;
      sxy += i * samples[i];
    }
    const den = sw * sxx - sx * sx;
    slope = den !== 0 ? (sw * sxy - sx * sy) / den : 0;
    const intercept = sw !== 0 ? (sy - slope * sx) / sw : 0;
    // k-sigma rejection on residuals of the good pixels (population std, like numpy).
    const flat = new Float64Array(npix);
    let mean = 0;
    for (let i = 0; i < npix; i++) {
      flat[i] = samples[i] - (intercept + slope * i);
      if (!badpix[i]) mean += flat[i];
    }
    mean /= sw;
    let varSum = 0;
    for (let i = 0; i < npix; i++) if (!badpix[i]) varSum += (flat[i] - mean) ** 2;
    const threshold = krej * Math.sqrt(varSum / sw);
    for (let i = 0; i < npix; i++) if (flat[i] < -threshold || flat[i] > threshold) badpix[i] = 1;
    // Dilate the mask like np.convolve(badpix, ones(ngrow), mode='same').
    // grown[i] = any(badpix[i+off-ngrow+1 .. i+off]), via prefix sums to stay O(npix).
    const off = Math.floor((ngrow - 1) / 2);
    const prefix = new Int32Array(npix + 1);
    for (let i = 0; i < npix; i++) prefix[i + 1] = prefix[i] + badpix[i];
    const grown = new Uint8Array(npix);
    for (let i = 0; i < npix; i++) {
      const lo = Math.max(0, i + off - ngrow + 1);
      const hi = Math.min(npix - 1, i + off);
      grown[i] = prefix[hi + 1] - prefix[lo] > 0 ? 1 : 0;
    }
    badpix = grown;
    lastNgoodpix = ngoodpix;
    ngoodpix = 0;
    for (let i = 0; i < npix; i++) if (!badpix[i]) ngoodpix++;
  }

  if (ngoodpix >= minpix) {
    if (contrast > 0) slope /= contrast;
    const center = Math.floor((npix - 1) / 2);
    const median = npix % 2 === 1 ? samples[center] : (samples[center] + samples[center + 1]) / 2;
    vmin = Math.max(vmin, median - (center - 1) * slope);
    vmax = Math.min(vmax, median + (npix - center) * slope);
  }
  return [vmin, vmax];
}

/** The finite values, ascending. */
function sortedFinite(values: ArrayLike<number>): Float64Array {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) n++;
  const out = new Float64Array(n);
  for (let i = 0, k = 0; i < values.length; i++) if (Number.isFinite(values[i])) out[k++] = values[i];
  return sortNumbers(out);
}

/** numpy.percentile's default (linear) interpolation on sorted values; p in [0, 100]. */
function percentileOfSorted(sorted: Float64Array, p: number): number {
  const index = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(index);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (index - lo);
}

/**
 * astropy PercentileInterval(percent): the limits keeping the central `percent` of the finite values
 * ((100 - percent) / 2 % cut at each end). Null when there is no finite value.
 */
export function percentileInterval(values: ArrayLike<number>, percent: number): [number, number] | null {
  const sorted = sortedFinite(values);
  if (sorted.length === 0) return null;
  const cut = (100 - percent) / 2;
  return [percentileOfSorted(sorted, cut), percentileOfSorted(sorted, 100 - cut)];
}

/** astropy MinMaxInterval: the smallest and largest finite values. */
export function minMaxInterval(values: ArrayLike<number>): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : null;
}

export type StretchName = 'linear' | 'log' | 'asinh' | 'sqrt';

/** astropy's default parameters: LogStretch(a=1000), AsinhStretch(a=0.1). */
export const LOG_STRETCH_A = 1000;
export const ASINH_STRETCH_A = 0.1;

/** The stretch of a normalised value x in [0, 1] (astropy's formulas). */
export function stretch(name: StretchName, x: number): number {
  switch (name) {
    case 'linear':
      return x;
    case 'sqrt':
      return Math.sqrt(x);
    case 'log':
      return Math.log(LOG_STRETCH_A * x + 1) / Math.log(LOG_STRETCH_A + 1);
    case 'asinh':
      return Math.asinh(x / ASINH_STRETCH_A) / Math.asinh(1 / ASINH_STRETCH_A);
  }
}

/**
 * Display levels in [0, 1] of every pixel: (v - lo) / (hi - lo) clipped to [0, 1] (astropy's
 * ImageNormalize with clip=True), then stretched. Non-finite pixels give NaN (drawn as blank);
 * a flat interval (hi <= lo) gives 0.5 everywhere rather than a division by zero.
 */
export function normalizeImage(values: ArrayLike<number>, interval: [number, number], name: StretchName): Float32Array {
  const [lo, hi] = interval;
  const range = hi - lo;
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) out[i] = NaN;
    else if (!(range > 0)) out[i] = 0.5;
    else out[i] = stretch(name, Math.min(1, Math.max(0, (v - lo) / range)));
  }
  return out;
}
