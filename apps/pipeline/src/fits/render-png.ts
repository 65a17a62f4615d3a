// Render a FITS cutout to an 8-bit grayscale PNG using IRAF/astropy zscale limits.
import { PNG } from 'pngjs';
import { readFits } from './fits.ts';

export interface RenderOptions {
  /**
   * FITS row 0 is the bottom of the image, PNG row 0 is the top. Default false keeps file order
   * (the web app flips on display); true produces the astronomical orientation (north up for ZTF).
   */
  flipVertical?: boolean;
}

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
      if (a[mid] < a[lo]) { const t = a[mid]; a[mid] = a[lo]; a[lo] = t; }
      if (a[hi] < a[lo]) { const t = a[hi]; a[hi] = a[lo]; a[lo] = t; }
      if (a[hi] < a[mid]) { const t = a[hi]; a[hi] = a[mid]; a[mid] = t; }
      const pivot = a[mid];
      let i = lo;
      let j = hi;
      while (i <= j) {
        while (a[i] < pivot) i++;
        while (a[j] > pivot) j--;
        if (i <= j) { const t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
      }
      // recurse (via the stack) into the smaller side, loop on the larger: O(log n) stack
      if (j - lo < hi - i) { stack.push(i, hi); hi = j; } else { stack.push(lo, j); lo = i; }
    }
    for (let k = lo + 1; k <= hi; k++) {
      const v = a[k];
      let m = k - 1;
      while (m >= lo && a[m] > v) { a[m + 1] = a[m]; m--; }
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

  const maxReject = 0.5, minNpixels = 5, krej = 2.5, maxIterations = 5;
  const minpix = Math.max(minNpixels, Math.floor(npix * maxReject));
  const ngrow = Math.max(1, Math.floor(npix * 0.01));
  let badpix = new Uint8Array(npix);
  let ngoodpix = npix;
  let lastNgoodpix = npix + 1;
  let slope = 0;

  for (let iter = 0; iter < maxIterations; iter++) {
    if (ngoodpix >= lastNgoodpix || ngoodpix < minpix) break;
    // Weighted least-squares line through (index, sample) over the good pixels.
    let sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (let i = 0; i < npix; i++) {
      if (badpix[i]) continue;
      sw++; sx += i; sy += samples[i]; sxx += i * i; sxy += i * samples[i];
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

/** Render a (possibly gzipped) FITS cutout to an 8-bit grayscale PNG. NaN pixels are black. */
export function renderCutoutPng(fitsBytes: Uint8Array, options: RenderOptions = {}): Buffer {
  const { width, height, data } = readFits(fitsBytes);
  const limits = zscale(data);
  const gray = Buffer.alloc(width * height);
  if (limits) {
    const [lo, hi] = limits;
    const range = hi - lo;
    for (let y = 0; y < height; y++) {
      const srcRow = options.flipVertical ? height - 1 - y : y;
      for (let x = 0; x < width; x++) {
        const v = data[srcRow * width + x];
        let g: number;
        if (!Number.isFinite(v)) g = 0;
        // A flat image (range 0) would divide by zero: draw it mid-grey instead.
        else if (!(range > 0)) g = 128;
        else g = Math.round(((v - lo) / range) * 255);
        gray[y * width + x] = g < 0 ? 0 : g > 255 ? 255 : g;
      }
    }
  }
  // colorType 0 + inputColorType 0 at 8 bits lets pngjs take our buffer as-is. A fixed Sub filter
  // is ~3x faster than pngjs's per-row filter search for ~3% more bytes on 63x63 stamps.
  return PNG.sync.write({ width, height, data: gray } as PNG, { colorType: 0, inputColorType: 0, bitDepth: 8, filterType: 1 });
}
