import { describe, expect, it } from 'vitest';

import { agn, eclipsingBinary, flareStar, fluxToMag, nova, rrLyrae, snIa, snIIP, type Window } from './lightcurves.ts';
import { Rng } from './prng.ts';

const W: Window = { first: 60970, start: 61000, end: 61025 };
const seeds = Array.from({ length: 20 }, (_, i) => i + 1);

describe('light-curve models', () => {
  it('type Ia: ~18 d rise, peak, faster decline in g, R secondary bump', () => {
    for (const s of seeds) {
      const lc = snIa(new Rng(s), W);
      const t0 = lc.peakMjd!;
      for (const b of [0, 1] as const) {
        const peak = Math.max(...[-2, -1, 0, 1, 2].map((d) => lc.flux(b, t0 + d)));
        expect(lc.flux(b, t0 - 21)).toBe(0); // before explosion
        expect(lc.flux(b, t0 - 15)).toBeLessThan(0.15 * peak); // early rise ~ t^2
        expect(lc.flux(b, t0 - 5)).toBeLessThan(peak);
        expect(lc.flux(b, t0 + 15)).toBeLessThan(peak);
      }
      // g fades faster than R after peak (the SN reddens).
      const dmag = (b: 0 | 1) => fluxToMag(lc.flux(b, t0 + 30)) - fluxToMag(lc.flux(b, t0));
      expect(dmag(0)).toBeGreaterThan(dmag(1) + 0.3);
      // Secondary R maximum: R decline stalls (or reverses) around +20..+30 d.
      const r = (d: number) => fluxToMag(lc.flux(1, t0 + d));
      expect(r(27) - r(18)).toBeLessThan(0.35);
    }
  });

  it('type II-P: plateau in R for weeks after the rise', () => {
    for (const s of seeds) {
      const lc = snIIP(new Rng(s), W);
      const t0 = lc.peakMjd!;
      const r = (d: number) => fluxToMag(lc.flux(1, t0 + d));
      expect(Math.abs(r(50) - r(10))).toBeLessThan(0.5);
    }
  });

  it('RR Lyrae: strictly periodic with a large amplitude, mean flux in the template', () => {
    for (const s of seeds) {
      const lc = rrLyrae(new Rng(s));
      const samples = Array.from({ length: 400 }, (_, i) => fluxToMag(lc.flux(0, 61000 + i * 0.0123)));
      const amp = Math.max(...samples) - Math.min(...samples);
      expect(amp).toBeGreaterThan(0.25);
      expect(amp).toBeLessThan(1.2);
      const ref = fluxToMag(lc.refFlux[0]);
      expect(ref).toBeGreaterThan(Math.min(...samples));
      expect(ref).toBeLessThan(Math.max(...samples));
    }
  });

  it('eclipsing binary: dips below the out-of-eclipse level', () => {
    const lc = eclipsingBinary(new Rng(3));
    const samples = Array.from({ length: 2000 }, (_, i) => lc.flux(1, 61000 + i * 0.0037));
    expect(Math.min(...samples)).toBeLessThan(0.9 * Math.max(...samples));
  });

  it('flare star: quiescent, then fast rise and exponential decay', () => {
    const lc = flareStar(new Rng(5), W);
    lc.addFlare(61010, 3, 0.1);
    const quiet = lc.refFlux[0];
    expect(lc.flux(0, 61010)).toBeGreaterThan(10 * quiet);
    const decayed = (lc.flux(0, 61010.1) - quiet) / (lc.flux(0, 61010) - quiet);
    expect(Math.abs(decayed - 1 / Math.E)).toBeLessThan(0.05);
    // Flares are blue: the R-band flux change is much smaller relative to quiescence.
    expect(lc.flux(1, 61010) / lc.refFlux[1]).toBeLessThan(lc.flux(0, 61010) / quiet);
  });

  it('AGN: stochastic, smooth on day scales', () => {
    const lc = agn(new Rng(9), W);
    const m = Array.from({ length: 50 }, (_, i) => fluxToMag(lc.flux(1, 60975 + i)));
    for (let i = 1; i < m.length; i++) expect(Math.abs(m[i] - m[i - 1])).toBeLessThan(0.15);
    expect(new Set(m.map((x) => x.toFixed(4))).size).toBeGreaterThan(40);
  });

  it('nova: rises within days, then declines', () => {
    const lc = nova(new Rng(2), W, 20.5);
    const t0 = lc.peakMjd!;
    expect(lc.flux(1, t0)).toBeGreaterThan(10 * lc.refFlux[1]);
    expect(lc.flux(1, t0 - 5)).toBe(lc.refFlux[1]);
    expect(lc.flux(1, t0 + 10)).toBeLessThan(lc.flux(1, t0));
  });
});
