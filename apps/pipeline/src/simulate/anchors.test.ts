import { angularSeparationDeg } from '@antares/astro';
import { describe, expect, it } from 'vitest';

import { planSurvey, type SurveyAnchors } from './plan.ts';

// The demo places some simulated objects on real catalog objects, so its loci have catalog matches.
const ANCHORS: SurveyAnchors = {
  galaxies: [
    { ra: 10.68, dec: 41.27, radiusDeg: 1.5 },
    { ra: 148.97, dec: 69.07, radiusDeg: 0.2 },
    { ra: 359.99, dec: 0.5, radiusDeg: 0.05 },
  ],
  stars: [
    { ra: 101.2875, dec: -16.7161 },
    { ra: 0.001, dec: 38.86 },
  ],
};
const OPTS = { objects: 400, nights: 3, seed: 7, startMjd: 61000 };

describe('simulated objects on real galaxies and stars', () => {
  it('puts supernovae inside galaxies and variables on stars, and leaves every other object as it was', () => {
    const plain = planSurvey(OPTS);
    const anchored = planSurvey({ ...OPTS, anchors: ANCHORS });
    let galaxies = 0;
    let stars = 0;
    anchored.objects.forEach((obj, i) => {
      const k = Math.floor(i / 60);
      if (i % 60 === 17) {
        const g = ANCHORS.galaxies[k % ANCHORS.galaxies.length];
        expect(obj.cls).toBe('SN Ia');
        expect(angularSeparationDeg(obj.ra, obj.dec, g.ra, g.dec)).toBeLessThanOrEqual(g.radiusDeg / 3 + 1e-9);
        galaxies++;
      } else if (i % 60 === 43) {
        const s = ANCHORS.stars[k % ANCHORS.stars.length];
        expect(obj.cls).toBe('RR Lyrae');
        expect(angularSeparationDeg(obj.ra, obj.dec, s.ra, s.dec)).toBeLessThan(1e-9);
        stars++;
      } else {
        expect([obj.ra, obj.dec, obj.cls]).toEqual([plain.objects[i].ra, plain.objects[i].dec, plain.objects[i].cls]);
      }
    });
    expect([galaxies, stars]).toEqual([7, 6]);
    const again = planSurvey({ ...OPTS, anchors: ANCHORS });
    expect(again.objects.map((o) => [o.ra, o.dec, o.cls])).toEqual(anchored.objects.map((o) => [o.ra, o.dec, o.cls]));
  });
});
