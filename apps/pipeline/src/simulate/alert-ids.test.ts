import { describe, expect, it } from 'vitest';

import { planSurvey } from './plan.ts';

/** Every alert id a plan writes: ZTF candids, Rubin DiaSource and forced-source ids. */
function alertIds(seed: number, objects: number, nights: number): string[] {
  const plan = planSurvey({ objects, nights, seed, startMjd: 61_000 });
  return [
    ...plan.objects.flatMap((o) => o.obs.filter((x) => x.candid !== null).map((x) => `ztf:${x.candid}`)),
    ...plan.lsst.objects.flatMap((o) =>
      o.obs.flatMap((x) => [`lsst:${x.diaSourceId}`, `lsst_forced:${x.diaForcedSourceId}`].filter((id) => !id.endsWith('null'))),
    ),
  ];
}

// The e2e tests drop simulations of other seeds into a server seeded with one: an id met twice would
// put an alert of one sky position on a locus of another (a stored trigger keeps its locus).
describe('simulated alert ids', () => {
  it('differ between seeds simulating the same nights, while each seed gives the same ids again', () => {
    const base = alertIds(2026, 120, 8);
    expect(new Set(base).size).toBe(base.length);
    expect(alertIds(2026, 120, 8)).toEqual(base);
    const seen = new Set(base);
    let compared = 0;
    for (const seed of [7, 100_123, 512_345, 923_298, 672_795, 511_706, 1_017_488]) {
      const other = alertIds(seed, 20, 4);
      compared += other.length;
      expect(
        other.filter((id) => seen.has(id)),
        `seed ${seed}`,
      ).toEqual([]);
    }
    expect(compared).toBeGreaterThan(500);
  });
});
