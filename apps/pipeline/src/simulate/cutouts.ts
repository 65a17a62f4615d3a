// 63x63 science / template / difference stamps, gzipped FITS as in real ZTF packets, and 31x31 plain
// FITS stamps at LSSTCam's 0.2"/pixel for the Rubin alerts (makeLsst), laid out as real Rubin cutouts
// are (the lsst.v9_0 packets under shared/data): the image, then its variance (UNCERT) and the PSF
// (PSFIMAGE, float64, 41x41, 47x47 for the template) as image extensions, 34.5 and 40.3 KB.
// Cost matters (tens of thousands of alerts in well under a minute), so: noise comes from a shared
// table of normals, PSFs are separable Gaussians drawn only within 4 sigma, pixels are quantised
// to a quarter of the noise (see encode), gzip runs at its fastest settings, and a
// template is rendered once per object and band and reused (the reference image does not change).
import { constants, gzipSync } from 'node:zlib';

import { type FitsImageExtension, writeFits } from '../fits/fits.ts';
import { magToFlux } from './lightcurves.ts';
import { BAND_MODEL, LSST_PIXEL_SCALE, type LsstObs, magToNjy } from './lsst-plan.ts';
import type { Obs, SimObject } from './plan.ts';
import { NoiseTable, Rng } from './prng.ts';
import { PIXEL_SCALE } from './rows.ts';

const N = 63;
const C = 31; // centre pixel
const NPIX = N * N;
const SIGMA_PER_FWHM = 1 / 2.3548;
const TEMPLATE_ZP: [number, number] = [26.3, 26.15];
const FITS_HEADER = { BUNIT: 'DN' }; // all real ZTF cutouts carry

interface Template {
  gz: Buffer;
  noiseOffset: number;
  noiseSigma: number;
  sky: number;
  /** Pixel position of the object (the stamp centre plus a fixed sub-pixel offset). */
  cx: number;
  cy: number;
  /** Reference-image sources in pixels, flux at zp 25 in this band, intrinsic size. */
  statics: { x: number; y: number; flux: number; sigmaPx: number }[];
}

/** Add a Gaussian of total `flux` centred at (x, y) pixels, drawn separably within 4 sigma (image n x n). */
function addGaussian(
  img: Float32Array,
  x: number,
  y: number,
  flux: number,
  sigma: number,
  gx: Float64Array,
  gy: Float64Array,
  n = N,
): void {
  const r = Math.ceil(4 * sigma);
  const x0 = Math.max(0, Math.floor(x) - r);
  const x1 = Math.min(n - 1, Math.floor(x) + r + 1);
  const y0 = Math.max(0, Math.floor(y) - r);
  const y1 = Math.min(n - 1, Math.floor(y) + r + 1);
  if (x0 > x1 || y0 > y1) return;
  const norm = flux / (2 * Math.PI * sigma * sigma);
  const k = -0.5 / (sigma * sigma);
  for (let i = x0; i <= x1; i++) gx[i] = Math.exp(k * (i - x) ** 2);
  for (let j = y0; j <= y1; j++) gy[j] = norm * Math.exp(k * (j - y) ** 2);
  for (let j = y0; j <= y1; j++) {
    const row = j * n;
    const a = gy[j];
    for (let i = x0; i <= x1; i++) img[row + i] += a * gx[i];
  }
}

/** Rotated elliptical Gaussian (streaks); only used for the rare bogus alerts. */
function addEllipse(img: Float32Array, x: number, y: number, flux: number, sa: number, sb: number, theta: number): void {
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  const norm = flux / (2 * Math.PI * sa * sb);
  const r = Math.ceil(4 * sa);
  for (let j = Math.max(0, Math.floor(y) - r); j <= Math.min(N - 1, Math.floor(y) + r); j++) {
    for (let i = Math.max(0, Math.floor(x) - r); i <= Math.min(N - 1, Math.floor(x) + r); i++) {
      const u = (i - x) * c + (j - y) * s;
      const v = -(i - x) * s + (j - y) * c;
      img[j * N + i] += norm * Math.exp(-0.5 * ((u / sa) ** 2 + (v / sb) ** 2));
    }
  }
}

// Level 1 with run-length matching only: noise has no long repeats for full LZ77 matching to
// find, so this is ~30% faster than the default strategy for ~10% larger stamps. (Async gzip on
// the thread pool was measured slower overall: each call pays ~0.13 ms of stream set-up on the
// main thread plus the hand-off.)
const GZIP_OPTIONS = { level: 1, strategy: constants.Z_RLE };

/**
 * Quantise to a power-of-two step of about a quarter of the noise (as fpack does with q = 4):
 * visually lossless, and the low mantissa bits become zeros, which gzip compresses well.
 */
function encode(img: Float32Array, noiseSigma: number): Buffer {
  const step = Math.pow(2, Math.floor(Math.log2(Math.max(noiseSigma / 4, 0.01))));
  const inv = 1 / step;
  for (let i = 0; i < NPIX; i++) img[i] = Math.round(img[i] * inv) * step;
  return gzipSync(writeFits(img, N, N, FITS_HEADER), GZIP_OPTIONS);
}

const LSST_N = 31;
const LSST_C = 15;
const LSST_NPIX = LSST_N * LSST_N;
const LSST_FITS_HEADER = { BUNIT: 'nJy' };
/** Sides of the PSF image a real Rubin cutout carries: 41 pixels for a visit, 47 for the template coadd. */
const LSST_PSF_N = 41;
const LSST_TEMPLATE_PSF_N = 47;

/**
 * A cutout's PSF image: a normalised Gaussian centred where the source is, off the pixel grid by
 * `offset` pixels (a PSF image centred on a pixel is symmetric, its values four times over). A visit's
 * science and difference cutouts carry the same one.
 */
function lsstPsfImage(psfSigma: number, side: number, offset: [number, number]): FitsImageExtension {
  const gaussian = (centre: number) => {
    const g = new Float64Array(side);
    let sum = 0;
    for (let i = 0; i < side; i++) sum += g[i] = Math.exp(-0.5 * ((i - centre) / psfSigma) ** 2);
    return g.map((v) => v / sum);
  };
  const gx = gaussian((side - 1) / 2 + offset[0]);
  const gy = gaussian((side - 1) / 2 + offset[1]);
  const psf = new Float64Array(side * side);
  for (let j = 0; j < side; j++) for (let i = 0; i < side; i++) psf[j * side + i] = gx[i] * gy[j];
  return { name: 'PSFIMAGE', width: side, height: side, data: psf };
}

interface LsstTemplate {
  fits: Buffer;
  noiseOffset: number;
  noiseSigma: number;
  cx: number;
  cy: number;
  statics: { x: number; y: number; flux: number; sigmaPx: number }[];
}

export interface Cutouts {
  science: Buffer;
  template: Buffer;
  difference: Buffer;
}

export class StampFactory {
  private readonly noise: NoiseTable;
  private readonly templates = new Map<string, Template>();
  private readonly img = new Float32Array(NPIX);
  private readonly gx = new Float64Array(N);
  private readonly gy = new Float64Array(N);
  private readonly lsstTemplates = new Map<string, LsstTemplate>();
  private readonly lsstImg = new Float32Array(LSST_NPIX);

  constructor(seed: number) {
    this.noise = new NoiseTable(seed);
  }

  private addStatics(img: Float32Array, tpl: Template, zp: number, psfSigma: number): void {
    const scale = Math.pow(10, 0.4 * (zp - 25));
    for (const s of tpl.statics) addGaussian(img, s.x, s.y, s.flux * scale, Math.hypot(psfSigma, s.sigmaPx), this.gx, this.gy);
  }

  private template(obj: SimObject, band: 0 | 1): Template {
    const key = `${obj.index}:${band}`;
    const hit = this.templates.get(key);
    if (hit) return hit;
    // The object sits at the centre plus a sub-pixel offset that is the same in every stamp:
    // the template (and so all static sources) must not move between alerts.
    const sub = new Rng(obj.seed, 'subpixel');
    const cx = C + sub.uniform(-0.5, 0.5);
    const cy = C + sub.uniform(-0.5, 0.5);
    const rng = new Rng(obj.seed, 'template', band);
    const t: Template = {
      gz: Buffer.alloc(0),
      noiseOffset: this.noise.offset(rng, NPIX),
      noiseSigma: rng.uniform(2, 4), // a stack of 15-40 frames: much less noisy than one exposure
      sky: band === 0 ? rng.uniform(90, 300) : rng.uniform(150, 500),
      cx,
      cy,
      statics: obj.statics.map((s) => ({
        x: cx + s.dx / PIXEL_SCALE,
        y: cy + s.dy / PIXEL_SCALE,
        flux: magToFlux(s.mag[band]),
        sigmaPx: s.sigmaPx,
      })),
    };
    const img = this.img;
    const nv = this.noise.values;
    const { sky, noiseSigma, noiseOffset } = t;
    for (let i = 0; i < NPIX; i++) img[i] = sky + noiseSigma * nv[noiseOffset + i];
    this.addStatics(img, t, TEMPLATE_ZP[band], rng.uniform(1.9, 2.5) * SIGMA_PER_FWHM);
    t.gz = encode(img, noiseSigma);
    this.templates.set(key, t);
    return t;
  }

  /** Forget cached templates (call when an object will not alert again, to bound memory). */
  drop(obj: SimObject): void {
    this.templates.delete(`${obj.index}:0`);
    this.templates.delete(`${obj.index}:1`);
  }

  /** Forget an object's cached Rubin templates. */
  dropLsst(obj: SimObject): void {
    for (const band of Object.keys(BAND_MODEL)) this.lsstTemplates.delete(`${obj.index}:${band}`);
  }

  /**
   * The Rubin template of an object in a band: a deep coadd (background-subtracted, in nJy per pixel)
   * of the same reference-image sources ZTF sees, at Rubin's pixel scale and the band's colour.
   */
  private lsstTemplate(obj: SimObject, band: keyof typeof BAND_MODEL): LsstTemplate {
    const key = `${obj.index}:${band}`;
    const hit = this.lsstTemplates.get(key);
    if (hit) return hit;
    const model = BAND_MODEL[band];
    const sub = new Rng(obj.seed, 'lsst-subpixel');
    const cx = LSST_C + sub.uniform(-0.5, 0.5);
    const cy = LSST_C + sub.uniform(-0.5, 0.5);
    const rng = new Rng(obj.seed, 'lsst-template', band);
    const psf = (rng.uniform(0.65, 0.8) * SIGMA_PER_FWHM) / LSST_PIXEL_SCALE;
    // A coadd about 1.5 mag deeper than one visit.
    const noiseSigma = magToNjy(model.depth + 1.5) / (5 * 2 * Math.sqrt(Math.PI) * psf);
    const t: LsstTemplate = {
      fits: Buffer.alloc(0),
      noiseOffset: this.noise.offset(rng, LSST_NPIX),
      noiseSigma,
      cx,
      cy,
      statics: obj.statics.map((s) => ({
        x: cx + s.dx / LSST_PIXEL_SCALE,
        y: cy + s.dy / LSST_PIXEL_SCALE,
        flux: magToNjy(s.mag[model.base] + model.colour),
        sigmaPx: (s.sigmaPx * PIXEL_SCALE) / LSST_PIXEL_SCALE,
      })),
    };
    const img = this.lsstImg;
    const nv = this.noise.values;
    for (let i = 0; i < LSST_NPIX; i++) img[i] = noiseSigma * nv[t.noiseOffset + i];
    for (const st of t.statics) addGaussian(img, st.x, st.y, st.flux, Math.hypot(psf, st.sigmaPx), this.gx, this.gy, LSST_N);
    t.fits = this.lsstFits(img, noiseSigma ** 2, rng, lsstPsfImage(psf, LSST_TEMPLATE_PSF_N, [cx - LSST_C, cy - LSST_C]));
    this.lsstTemplates.set(key, t);
    return t;
  }

  /**
   * A Rubin cutout of `img`, then its variance and `psf` as image extensions. The variance varies from
   * pixel to pixel around `variance` (by fresh normal deviates drawn with `rng`), as a real variance plane
   * does. Constant or symmetric planes would compress far better than real ones: real Rubin cutouts
   * compress to 51-56 % with lz4, these to about as much.
   */
  private lsstFits(img: Float32Array, variance: number, rng: Rng, psf: FitsImageExtension): Buffer {
    const noise = this.noise.values;
    const noiseOffset = this.noise.offset(rng, LSST_NPIX);
    const uncert = new Float32Array(LSST_NPIX);
    for (let i = 0; i < LSST_NPIX; i++) uncert[i] = variance * (1 + 0.1 * noise[noiseOffset + i]) ** 2;
    const variancePlane = { name: 'UNCERT', width: LSST_N, height: LSST_N, data: uncert, header: { UTYPE: 'VarianceUncertainty' } };
    return writeFits(img, LSST_N, LSST_N, LSST_FITS_HEADER, [variancePlane, psf]);
  }

  /** Plain-FITS science, template and difference stamps of a Rubin visit (nJy per pixel), with their variance and PSF. */
  makeLsst(obj: SimObject, obs: LsstObs): Cutouts {
    const v = obs.visit;
    const tpl = this.lsstTemplate(obj, v.band);
    const rng = new Rng(obj.seed, 'lsst-stamp', obs.index);
    const psf = (v.seeing * SIGMA_PER_FWHM) / LSST_PIXEL_SCALE;
    // Per-pixel noise that makes a PSF-fit 5-sigma limit equal the visit's depth.
    const sigma = magToNjy(v.depth) / (5 * 2 * Math.sqrt(Math.PI) * psf);
    const off = this.noise.offset(rng, LSST_NPIX);
    const nv = this.noise.values;
    const { cx: x, cy: y, noiseSigma: tSigma, noiseOffset: tOff } = tpl;
    const img = this.lsstImg;
    const addChange = (target: Float32Array, isDiff: boolean) => {
      if (obs.flag === 'isDipole') {
        // A misaligned subtraction: a positive and a negative lobe in the difference image only.
        if (!isDiff) return;
        const a = rng.uniform(0, 2 * Math.PI);
        const lobe = Math.max(Math.abs(obs.flux), 2 * magToNjy(v.depth));
        addGaussian(target, x + 2 * Math.cos(a), y + 2 * Math.sin(a), lobe, psf, this.gx, this.gy, LSST_N);
        addGaussian(target, x - 2 * Math.cos(a), y - 2 * Math.sin(a), -0.9 * lobe, psf, this.gx, this.gy, LSST_N);
        return;
      }
      addGaussian(target, x, y, obs.flux, psf, this.gx, this.gy, LSST_N);
    };
    const psfImage = lsstPsfImage(psf, LSST_PSF_N, [x - LSST_C, y - LSST_C]);
    // Rubin difference images keep their sign: a source that faded is a negative one.
    for (let i = 0; i < LSST_NPIX; i++) img[i] = sigma * nv[off + i] - tSigma * nv[tOff + i];
    addChange(img, true);
    const difference = this.lsstFits(img, sigma ** 2 + tSigma ** 2, rng, psfImage);
    for (let i = 0; i < LSST_NPIX; i++) img[i] = sigma * nv[off + i];
    for (const st of tpl.statics) addGaussian(img, st.x, st.y, st.flux, Math.hypot(psf, st.sigmaPx), this.gx, this.gy, LSST_N);
    addChange(img, false);
    const science = this.lsstFits(img, sigma ** 2, rng, psfImage);
    return { science, template: tpl.fits, difference };
  }

  make(obj: SimObject, obs: Obs, fwhm: number, elong: number): Cutouts {
    const e = obs.exp;
    const band = e.fid === 1 ? 0 : 1;
    const tpl = this.template(obj, band);
    const rng = new Rng(obj.seed, 'stamp', obs.index);
    const changeSeed = rng.u32(); // same artefact in science and difference
    const psf = e.fwhm * SIGMA_PER_FWHM;
    const scale = Math.pow(10, 0.4 * (e.magzpsci - 25));
    // Per-pixel noise that makes a PSF-fit 5-sigma limit equal diffmaglim (noise area 4 pi sigma^2).
    const sigma = (magToFlux(e.diffmaglim) * scale) / (5 * 2 * Math.sqrt(Math.PI) * psf);
    const off = this.noise.offset(rng, NPIX);
    const nv = this.noise.values;
    const { cx: x, cy: y, noiseSigma: tSigma, noiseOffset: tOff } = tpl;
    const flux = Math.abs(obs.fluxObs) * scale;
    const sign = obs.fluxObs >= 0 ? 1 : -1;

    // Difference first (PSF-matched, background-subtracted): science noise minus template noise
    // plus the changed flux. For a negative subtraction ZTF ships ref-minus-sci, so flip it.
    const img = this.img;
    for (let i = 0; i < NPIX; i++) img[i] = sigma * nv[off + i] - tSigma * nv[tOff + i];
    this.addChange(img, obs, x, y, sign * flux, psf, fwhm, elong, changeSeed, true);
    if (sign < 0) for (let i = 0; i < NPIX; i++) img[i] = -img[i];
    const difference = encode(img, Math.hypot(sigma, tSigma));

    const sky = tpl.sky * rng.uniform(0.97, 1.03);
    for (let i = 0; i < NPIX; i++) img[i] = sky + sigma * nv[off + i];
    this.addStatics(img, tpl, e.magzpsci, psf);
    this.addChange(img, obs, x, y, sign * flux, psf, fwhm, elong, changeSeed, false);
    return { science: encode(img, sigma), template: tpl.gz, difference };
  }

  /** What changed since the reference: a point source, or the artefact of a bogus alert. */
  private addChange(
    img: Float32Array,
    obs: Obs,
    x: number,
    y: number,
    flux: number,
    psf: number,
    fwhm: number,
    elong: number,
    seed: number,
    isDiff: boolean,
  ): void {
    const r = new Rng(seed);
    switch (obs.bogus) {
      case 'hotpix': {
        const n = 2 + r.int(4);
        for (let k = 0; k < n; k++) img[(C + r.int(3) - 1) * N + C + r.int(3) - 1] += flux * r.uniform(0.2, 0.6);
        return;
      }
      case 'streak': {
        const sb = (fwhm * SIGMA_PER_FWHM) / Math.sqrt(elong);
        addEllipse(img, x, y, flux, sb * elong * 1.5, sb, r.uniform(0, Math.PI));
        return;
      }
      case 'blob':
        addGaussian(img, x, y, flux, fwhm * SIGMA_PER_FWHM, this.gx, this.gy);
        return;
      case 'dipole': {
        // A misaligned subtraction of the star: a positive and a negative lobe in the difference only.
        if (!isDiff) return;
        const a = r.uniform(0, 2 * Math.PI);
        addGaussian(img, x + Math.cos(a), y + Math.sin(a), flux, psf, this.gx, this.gy);
        addGaussian(img, x - Math.cos(a), y - Math.sin(a), -0.9 * flux, psf, this.gx, this.gy);
        return;
      }
      default:
        addGaussian(img, x, y, flux, psf, this.gx, this.gy);
    }
  }
}
