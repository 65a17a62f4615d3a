import { describe, expect, it } from 'vitest';

import { correctedMagnitude, correctedMagnitudeLimits, fluxToMag, magToFlux } from './magnitudes.ts';

describe('fluxToMag / magToFlux', () => {
  it('uses m = ZP - 2.5 log10(f)', () => {
    // AB magnitudes with fluxes in microjansky have ZP = 23.9: 3631 Jy is AB 0.
    expect(fluxToMag(3631e6, 23.9)).toBeCloseTo(0, 3);
    expect(fluxToMag(1, 23.9)).toBe(23.9);
    expect(fluxToMag(100, 25)).toBeCloseTo(20, 12); // 100x brighter = 5 mag
    expect(magToFlux(20, 25)).toBeCloseTo(100, 10);
    expect(magToFlux(fluxToMag(1234.5, 27.1), 27.1)).toBeCloseTo(1234.5, 9);
  });

  it('refuses non-positive flux', () => {
    expect(() => fluxToMag(0, 25)).toThrow(RangeError);
    expect(() => fluxToMag(-3, 25)).toThrow(RangeError);
  });
});

describe('correctedMagnitude', () => {
  it('adds a positive difference to the reference flux (hand-computed)', () => {
    // magnr = magpsf = 15: flux doubles, so mag = 15 - 2.5 log10(2) = 15 - 0.752575 = 14.247425.
    // magerr = sqrt((1e-6 * 0.1)^2 + (1e-6 * 0.02)^2) / 2e-6 = sqrt(0.0104) / 2 = 0.0509902.
    const result = correctedMagnitude({ magpsf: 15, sigmapsf: 0.1, magnr: 15, sigmagnr: 0.02, isdiffpos: 't' });
    expect(result?.mag).toBeCloseTo(14.247425, 6);
    expect(result?.magerr).toBeCloseTo(0.0509902, 6);
    expect(result?.magulim).toBeUndefined();
  });

  it('subtracts a negative difference (hand-computed)', () => {
    // F = 10^-6 - 10^-6.4 = 10^-6 * (1 - 0.3981072) = 0.6018928e-6
    // mag = 15 - 2.5 log10(0.6018928) = 15 + 2.5 * 0.2204810 = 15.5512025
    // magerr = sqrt((0.3981072 * 0.2)^2 + (1 * 0.05)^2) / 0.6018928 = sqrt(0.0088395) / 0.6018928
    //        = 0.0940186 / 0.6018928 = 0.156206
    for (const isdiffpos of ['f', '0', false] as const) {
      const result = correctedMagnitude({ magpsf: 16, sigmapsf: 0.2, magnr: 15, sigmagnr: 0.05, isdiffpos });
      expect(result?.mag).toBeCloseTo(15.5512025, 6);
      expect(result?.magerr).toBeCloseTo(0.156206, 5);
    }
  });

  // Alert fields and ANTARES outputs from a frozen ANTARES API response for ZTF20aafqubg
  // (sambolino/alertissimo tests/fixtures/antares/ztf/{alerts,lightcurve}.json).
  it.each([
    {
      candid: '1509161731415010004',
      alert: {
        magpsf: 17.908700942993164,
        sigmapsf: 0.11303699761629105,
        magnr: 15.321999549865723,
        sigmagnr: 0.014999999664723873,
        isdiffpos: '0',
        distnr: 1.09483003616333,
        maglim: 19.614500045776367,
      },
      antares: { mag: 15.427173647310855, magerr: 0.0201319739656266, magulim: 15.30136520349225, magllim: 15.34303366041562 },
    },
    {
      candid: '1509174601415010010',
      alert: {
        magpsf: 17.194093704223633,
        sigmapsf: 0.07536114007234573,
        magnr: 14.309999465942383,
        sigmagnr: 0.017999999225139618,
        isdiffpos: 'f',
        distnr: 0.5971184968948364,
        maglim: 19.67426300048828,
      },
      antares: { mag: 14.389030366575088, magerr: 0.0201780022898181, magulim: 14.302264276582894, magllim: 14.31779015934157 },
    },
  ])('reproduces ANTARES ant_mag_corrected / ant_magerr_corrected / limits for real ZTF alerts (candid $candid)', ({ alert, antares }) => {
    const corrected = correctedMagnitude(alert);
    expect(corrected).not.toBeNull();
    for (const key of ['mag', 'magerr', 'magulim', 'magllim'] as const) expect(corrected?.[key], key).toBeCloseTo(antares[key], 9);
  });

  it('returns null when there is no usable reference source', () => {
    const base = { magpsf: 18, sigmapsf: 0.1, magnr: 17, sigmagnr: 0.02, isdiffpos: 't' as const };
    expect(correctedMagnitude({ ...base, magnr: null })).toBeNull();
    expect(correctedMagnitude({ ...base, magnr: -999 })).toBeNull();
    expect(correctedMagnitude({ ...base, sigmagnr: undefined })).toBeNull();
    expect(correctedMagnitude({ ...base, distnr: 1.4 })).toBeNull();
    expect(correctedMagnitude({ ...base, distnr: 5 })).toBeNull();
    expect(correctedMagnitude({ ...base, distnr: -999 })).toBeNull();
    expect(correctedMagnitude({ ...base, distnr: 1.39 })).not.toBeNull();
    expect(correctedMagnitude({ ...base, magpsf: null })).toBeNull();
    expect(correctedMagnitude({ ...base, isdiffpos: 'x' })).toBeNull();
  });

  it('returns null when the total flux is not positive', () => {
    // A negative difference as bright as (or brighter than) the reference leaves nothing.
    expect(correctedMagnitude({ magpsf: 17, sigmapsf: 0.1, magnr: 17, sigmagnr: 0.02, isdiffpos: 'f' })).toBeNull();
    expect(correctedMagnitude({ magpsf: 16, sigmapsf: 0.1, magnr: 17, sigmagnr: 0.02, isdiffpos: 'f' })).toBeNull();
  });
});

describe('correctedMagnitudeLimits', () => {
  it('bounds the total flux by reference +/- limiting flux (hand-computed)', () => {
    // magnr 15, maglim 17.5: F_lim / F_ref = 10^-1 -> magulim = 15 - 2.5 log10(1.1) = 14.896518,
    // magllim = 15 - 2.5 log10(0.9) = 15 + 2.5 * 0.0457575 = 15.114394.
    const limits = correctedMagnitudeLimits({ magnr: 15, maglim: 17.5 });
    expect(limits?.magulim).toBeCloseTo(14.896518, 6);
    expect(limits?.magllim).toBeCloseTo(15.114394, 6);
  });

  it('matches ANTARES ant_magulim/ant_magllim_corrected on a non-detection', () => {
    // Same fixture: upper limit ZTF20aafqubg-1085262891415 (R band, reference 14.31) with maglim 15.4841.
    const limits = correctedMagnitudeLimits({ magnr: 14.309999942779541, maglim: 15.484100341796877 });
    expect(limits?.magulim).toBeCloseTo(13.992947126690993, 6);
    expect(limits?.magllim).toBeCloseTo(14.759701677380878, 6);
  });

  it('leaves the faint side open when the limit is brighter than the reference', () => {
    expect(correctedMagnitudeLimits({ magnr: 18, maglim: 17 })).toEqual({ magulim: expect.any(Number) });
    expect(correctedMagnitudeLimits({ magnr: null, maglim: 17 })).toBeNull();
    expect(correctedMagnitudeLimits({ magnr: 18, maglim: 17, distnr: 3 })).toBeNull();
  });
});
