// Light-curve models for the simulated object classes. Fluxes are in "zp25" units,
// flux = 10^(-0.4 (mag - 25)), so magnitude 20 is flux 100. Band index 0 is ZTF g (fid 1),
// 1 is ZTF R (fid 2). Models are simple parametric shapes chosen so that the classic features a
// broker or classifier looks for are present (Ia rise time and R-band second bump, II-P plateau,
// RR Lyrae sawtooth, flare fast-rise/exponential-decay, AGN red-noise), not physical models.
import type { Rng } from './prng.ts';

export type Band = 0 | 1;

export const magToFlux = (mag: number): number => Math.pow(10, -0.4 * (mag - 25));
export const fluxToMag = (flux: number): number => 25 - 2.5 * Math.log10(flux);

/**
 * `flux(b, mjd)` is the flux of the varying component at the object's position; `refFlux[b]` is
 * how much of it is in the reference image (0 for a transient, the mean flux for a variable
 * star). The difference image sees flux - refFlux, which is what alerts are made from.
 */
export interface LightCurve {
  refFlux: [number, number];
  flux(band: Band, mjd: number): number;
  /** Time of maximum light for transients (for tests and sanity checks). */
  peakMjd?: number;
}

/** Survey time span the models place their events in: [first simulated MJD, last MJD]. */
export interface Window {
  first: number; // first pre-roll night (history only)
  start: number; // first night written to files
  end: number; // last night written to files
}

/** Bazin (2009) rise/decline shape, normalised to 1 at its maximum. */
function bazin(tauRise: number, tauFall: number): (dt: number) => number {
  // Maximum of exp(-t/tf) / (1 + exp(-t/tr)) lies at t* = tr ln(tf/tr - 1).
  const tStar = tauRise * Math.log(tauFall / tauRise - 1);
  const raw = (t: number) => Math.exp(-t / tauFall) / (1 + Math.exp(-t / tauRise));
  const norm = raw(tStar);
  return (dt) => raw(dt + tStar) / norm;
}

export function snIa(rng: Rng, w: Window): LightCurve {
  const peak = rng.uniform(w.start - 25, w.end + 4);
  const peakR = 17.5 + 2.4 * Math.sqrt(rng.next()); // more faint ones than bright ones
  const peakG = peakR + rng.normal(-0.05, 0.08);
  const rise = rng.uniform(16, 20); // explosion to maximum
  // Rise: smoothstep x^2 (3 - 2x), fireball-like (~x^2) early and flat at maximum, so it joins
  // the Bazin decline smoothly. Decline: Bazin; R slower, plus the secondary maximum ~4 weeks on.
  const tfG = rng.uniform(15, 20);
  const declineG = bazin(rng.uniform(3.2, 4.0), tfG);
  const declineR = bazin(rng.uniform(3.5, 4.4), tfG * 1.45);
  const bump = rng.uniform(0.25, 0.4);
  const bumpAt = rng.uniform(24, 30);
  const aG = magToFlux(peakG);
  const aR = magToFlux(peakR);
  const riseShape = (dt: number) => {
    const x = Math.max(0, 1 + dt / rise);
    return x * x * (3 - 2 * x);
  };
  const bumpShape = (dt: number) => bump * Math.exp(-0.5 * ((dt - bumpAt) / 6) ** 2);
  return {
    refFlux: [0, 0],
    peakMjd: peak,
    flux(b, t) {
      const dt = t - peak;
      if (dt < 0) return (b === 0 ? aG : aR) * riseShape(dt);
      return b === 0 ? aG * declineG(dt) : aR * (declineR(dt) + bumpShape(dt));
    },
  };
}

export function snIIP(rng: Rng, w: Window): LightCurve {
  const explosion = rng.uniform(w.start - 70, w.end - 3);
  const peakR = rng.uniform(17.8, 19.9);
  const peakG = peakR + rng.normal(-0.15, 0.08);
  const tauRise = rng.uniform(2, 4.5);
  const plateau = rng.uniform(80, 120);
  // Mag/day slopes on the plateau: g fades (and reddens) faster than R.
  const slope: [number, number] = [rng.uniform(0.02, 0.035), rng.uniform(0.004, 0.01)];
  const peaks: [number, number] = [peakG, peakR];
  return {
    refFlux: [0, 0],
    peakMjd: explosion + 3 * tauRise,
    flux(b, t) {
      const dt = t - explosion;
      if (dt <= 0) return 0;
      const rise = 1 - Math.exp(-dt / tauRise);
      // Drop of ~2 mag off the plateau, smoothed over ~5 days.
      const drop = 2.2 / (1 + Math.exp(-(dt - plateau) / 2.5));
      return magToFlux(peaks[b] + slope[b] * dt + drop) * rise;
    },
  };
}

/** Periodic variable from a brightness profile p(phase) in [0, 1] (1 = maximum light). */
function periodic(
  rng: Rng,
  meanR: number,
  gMinusR: number,
  ampG: number,
  ampRatioR: number,
  period: number,
  profile: (phase: number) => number,
): LightCurve {
  const phase0 = rng.next();
  const means: [number, number] = [meanR + gMinusR, meanR];
  const amps: [number, number] = [ampG, ampG * ampRatioR];
  const flux = (b: Band, t: number) => {
    let ph = (t / period + phase0) % 1;
    if (ph < 0) ph += 1;
    return magToFlux(means[b] + amps[b] * (0.5 - profile(ph)));
  };
  // The reference image is a stack of many epochs: its flux is the phase-averaged flux.
  const refFlux: [number, number] = [0, 0];
  for (const b of [0, 1] as const) {
    let sum = 0;
    for (let i = 0; i < 200; i++) sum += flux(b, ((i + 0.5) / 200 - phase0) * period);
    refFlux[b] = sum / 200;
  }
  return { refFlux, flux };
}

export function rrLyrae(rng: Rng): LightCurve {
  const meanR = rng.uniform(15.5, 19.0);
  const gr = rng.uniform(0.15, 0.35);
  if (rng.chance(0.7)) {
    // RRab: fast rise over ~15% of the cycle, slower decline (sawtooth).
    const rise = rng.uniform(0.12, 0.18);
    return periodic(rng, meanR, gr, rng.uniform(0.6, 1.1), 0.72, rng.uniform(0.45, 0.8), (ph) =>
      ph < rise ? ph / rise : Math.pow(1 - (ph - rise) / (1 - rise), 1.3),
    );
  }
  // RRc: shorter period, nearly sinusoidal, smaller amplitude.
  return periodic(rng, meanR, gr, rng.uniform(0.3, 0.5), 0.75, rng.uniform(0.25, 0.42), (ph) => 0.5 + 0.5 * Math.cos(2 * Math.PI * ph));
}

export function cepheid(rng: Rng): LightCurve {
  const rise = rng.uniform(0.25, 0.35);
  return periodic(rng, rng.uniform(15.2, 17.5), rng.uniform(0.4, 0.8), rng.uniform(0.4, 1.0), 0.65, rng.logUniform(1.5, 40), (ph) =>
    ph < rise ? 0.5 - 0.5 * Math.cos((Math.PI * ph) / rise) : 0.5 + 0.5 * Math.cos((Math.PI * (ph - rise)) / (1 - rise)),
  );
}

export function eclipsingBinary(rng: Rng): LightCurve {
  const depth1 = 1 - Math.pow(10, -0.4 * rng.uniform(0.3, 1.0)); // fractional flux loss
  const depth2 = depth1 * rng.uniform(0.1, 0.6);
  const width = rng.uniform(0.03, 0.07);
  const dip = (d: number) => Math.exp(-0.5 * (d / width) ** 2);
  // Profile expressed through magnitudes: 0.5 - amp*(0.5 - p) must equal -2.5 log10(flux ratio).
  // Using amp 1 and p = 0.5 + 2.5 log10(f) maps the flux ratio f straight to a magnitude offset.
  return periodic(
    rng,
    rng.uniform(14.8, 18.5),
    rng.uniform(0.2, 0.8),
    1,
    0.9,
    rng.logUniform(0.3, 5),
    (ph) => 0.5 + 2.5 * Math.log10(Math.max(0.02, 1 - depth1 * dip(Math.min(ph, 1 - ph)) - depth2 * dip(ph - 0.5))),
  );
}

interface Flare {
  t: number;
  amp: number; // peak g-band flare flux
  tau: number; // exponential decay time [d]
}

/** M-dwarf flares: fast rise (~6 min), exponential decay; flares are blue, weak in R. */
export interface FlareStar extends LightCurve {
  addFlare(t: number, ampMag: number, tau: number): void;
}

export function flareStar(rng: Rng, w: Window): FlareStar {
  const quietR = rng.uniform(15.5, 18.5);
  const quiet: [number, number] = [magToFlux(quietR + rng.uniform(1.2, 1.5)), magToFlux(quietR)];
  const flares: Flare[] = [];
  const add = (t: number, ampMag: number, tau: number) => {
    flares.push({ t, amp: quiet[0] * (Math.pow(10, 0.4 * ampMag) - 1), tau });
  };
  const rate = rng.uniform(0.1, 0.4); // flares per day above our small-amplitude cut
  for (let t = w.first; ;) {
    t += -Math.log(1 - rng.next()) / rate;
    if (t > w.end + 1) break;
    const big = rng.chance(0.3);
    add(t, 0.4 + 3 * rng.next() ** 2, big ? rng.uniform(0.05, 0.3) : rng.uniform(0.01, 0.05));
  }
  const RISE = 0.004;
  return {
    refFlux: [quiet[0], quiet[1]],
    addFlare: add,
    flux(b, t) {
      let f = 0;
      for (const fl of flares) {
        const dt = t - fl.t;
        if (dt < -RISE || dt > 12 * fl.tau) continue;
        f += dt < 0 ? fl.amp * (1 + dt / RISE) : fl.amp * Math.exp(-dt / fl.tau);
      }
      return quiet[b] + (b === 0 ? f : 0.35 * f);
    },
  };
}

export function agn(rng: Rng, w: Window): LightCurve {
  const meanR = rng.uniform(16.8, 19.2);
  const means: [number, number] = [meanR + rng.uniform(0.2, 0.5), meanR];
  const tau = rng.uniform(100, 400);
  const sfInf = rng.uniform(0.2, 0.4); // R-band structure function at long lags [mag]
  // Damped random walk (Ornstein-Uhlenbeck) sampled on a 0.25-day grid, exact update rule.
  const step = 0.25;
  const n = Math.ceil((w.end + 2 - w.first) / step) + 1;
  const grid = new Float64Array(n);
  const sigma = sfInf / Math.SQRT2;
  const decay = Math.exp(-step / tau);
  grid[0] = rng.normal(0, sigma);
  for (let i = 1; i < n; i++) grid[i] = grid[i - 1] * decay + rng.normal(0, sigma * Math.sqrt(1 - decay * decay));
  const ampRatio: [number, number] = [1.25, 1];
  const at = (t: number) => {
    const x = Math.min(n - 1.001, Math.max(0, (t - w.first) / step));
    const i = Math.floor(x);
    return grid[i] + (grid[i + 1] - grid[i]) * (x - i);
  };
  return {
    refFlux: [magToFlux(means[0]), magToFlux(means[1])],
    flux: (b, t) => magToFlux(means[b] + ampRatio[b] * at(t)),
  };
}

/** `peakRangeR`: Galactic novae by default; M31's (distance modulus 24.4) peak at R ~16-18.5. */
export function nova(rng: Rng, w: Window, progenitorR: number | null, peakRangeR: [number, number] = [14.8, 17.5]): LightCurve {
  const peak = rng.uniform(w.start - 8, w.end - 1);
  const peakR = rng.uniform(peakRangeR[0], peakRangeR[1]);
  const peakG = peakR + rng.uniform(0.1, 0.5);
  const riseDays = rng.uniform(1.5, 3);
  const t2 = rng.logUniform(5, 40); // days to decline by 2 mag: fast vs slow novae
  const quiet: [number, number] = progenitorR === null ? [0, 0] : [magToFlux(progenitorR + 0.3), magToFlux(progenitorR)];
  const peaks: [number, number] = [peakG, peakR];
  return {
    refFlux: [quiet[0], quiet[1]],
    peakMjd: peak,
    flux(b, t) {
      const dt = t - peak;
      if (dt < -riseDays) return quiet[b];
      // Rise linear in magnitude from ~6 mag below peak, decline 2 mag per t2.
      const mag = dt < 0 ? peaks[b] - (6 * dt) / riseDays : peaks[b] + (2 * dt) / t2;
      return quiet[b] + magToFlux(mag);
    },
  };
}
