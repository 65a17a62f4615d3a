import { angularSeparationDeg } from '@antares/astro';
import { describe, expect, it } from 'vitest';

import { isM31Object, M31, M31_EVERY } from './m31.ts';
import { planSurvey } from './plan.ts';

/** Elliptical radius in the D25 ellipse, from separation and position angle on the sphere. */
function ellipticalRadius(ra: number, dec: number): number {
  const rad = Math.PI / 180;
  const s = angularSeparationDeg(M31.ra, M31.dec, ra, dec);
  const pa = Math.atan2(
    Math.sin((ra - M31.ra) * rad) * Math.cos(dec * rad),
    Math.cos(M31.dec * rad) * Math.sin(dec * rad) - Math.sin(M31.dec * rad) * Math.cos(dec * rad) * Math.cos((ra - M31.ra) * rad),
  );
  const t = pa - M31.paDeg * rad;
  return Math.hypot((s * Math.cos(t)) / M31.semiMajorDeg, (s * Math.sin(t)) / M31.semiMinorDeg);
}

describe('the M31 nova population', () => {
  const opts = { objects: 3 * M31_EVERY, nights: 6, seed: 11, startMjd: 61000 };
  const plan = planSurvey(opts);

  it('puts every M31_EVERY-th object, as a nova, inside the disk ellipse, and only those', () => {
    const inside = plan.objects.filter((o) => ellipticalRadius(o.ra, o.dec) <= 1);
    expect(inside.map((o) => o.index)).toEqual([149, 299, 449]);
    for (const o of inside) {
      expect(isM31Object(o.index)).toBe(true);
      expect(o.cls).toBe('Nova');
      expect(ellipticalRadius(o.ra, o.dec)).toBeLessThanOrEqual(0.95 + 1e-9);
      // No progenitor in the reference, but the galaxy's own extended light a few arcsec away.
      expect(o.lc!.refFlux).toEqual([0, 0]);
      expect(o.statics[o.refIdx].star).toBe(false);
      expect(o.statics[o.refIdx].sigmaPx).toBeGreaterThan(2);
    }
  });

  it('is the same for the same seed, and is seen by the survey', () => {
    const again = planSurvey(opts);
    const m31 = plan.objects.filter((o) => isM31Object(o.index));
    expect(again.objects.filter((o) => isM31Object(o.index)).map((o) => [o.ra, o.dec, o.objectId])).toEqual(
      m31.map((o) => [o.ra, o.dec, o.objectId]),
    );
    expect(m31.some((o) => o.obs.filter((x) => x.detected).length >= 2)).toBe(true);
  });
});
