import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { hypot3, norm } from './vec3.ts';

// HTM ids stored with every locus and alert were computed with Math.hypot: hypot3 must give its bits.
describe('hypot3', () => {
  it('equals Math.hypot bit for bit on unit-sphere scales and on any doubles', () => {
    const unitish = fc.double({ min: -2, max: 2, noNaN: true });
    fc.assert(
      fc.property(unitish, unitish, unitish, (x, y, z) => Object.is(hypot3(x, y, z), Math.hypot(x, y, z))),
      { numRuns: 200_000 },
    );
    fc.assert(
      fc.property(fc.double(), fc.double(), fc.double(), (x, y, z) => Object.is(hypot3(x, y, z), Math.hypot(x, y, z))),
      { numRuns: 200_000 },
    );
  });

  it('treats zeros, infinities, NaN and extremes as Math.hypot does', () => {
    const specials = [0, -0, 1, -1, Infinity, -Infinity, NaN, Number.MIN_VALUE, Number.MAX_VALUE, 1e-300, 1e300, 0.5];
    for (const x of specials)
      for (const y of specials) for (const z of specials) expect([x, y, z, hypot3(x, y, z)]).toEqual([x, y, z, Math.hypot(x, y, z)]);
    expect(norm([3, 4, 12])).toBe(13);
  });
});
