import { describe, expect, it } from 'vitest';

import { abMagToNanojansky, isDiffPosSign, limitingFlux, ztfDifferenceFlux } from './difference-flux.ts';

describe('difference flux in nJy', () => {
  it('puts AB 31.4 at 1 nJy and 3631 Jy near AB 0', () => {
    expect(abMagToNanojansky(31.4)).toBeCloseTo(1, 12);
    expect(abMagToNanojansky(0) / 3631e9).toBeCloseTo(1, 3);
    expect(abMagToNanojansky(21.4)).toBeCloseTo(10_000, 6);
    expect(limitingFlux(20.4)).toBeCloseTo(25_118.864, 2);
  });

  it('signs ZTF fluxes by isdiffpos and propagates sigmapsf', () => {
    const positive = ztfDifferenceFlux(21.4, 0.1, 't')!;
    expect(positive.flux).toBeCloseTo(10_000, 6);
    // 10000 * ln(10) / 2.5 * 0.1 = 921.034
    expect(positive.fluxErr).toBeCloseTo(921.034037, 5);
    expect(ztfDifferenceFlux(21.4, 0.1, 'f')!.flux).toBeCloseTo(-10_000, 6);
    expect(ztfDifferenceFlux(21.4, undefined, '1')!.fluxErr).toBeUndefined();
    expect(ztfDifferenceFlux(21.4, 0.1, 'x')).toBeNull();
    expect(ztfDifferenceFlux(null, 0.1, 't')).toBeNull();
    expect([isDiffPosSign(true), isDiffPosSign('0'), isDiffPosSign(-1), isDiffPosSign(undefined)]).toEqual([1, -1, -1, null]);
  });
});
