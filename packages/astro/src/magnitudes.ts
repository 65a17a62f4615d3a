/**
 * Magnitude/flux helpers and the ZTF "corrected" (difference + reference,
 * a.k.a. DC) magnitude.
 *
 * ZTF alerts report the PSF magnitude of the *difference* image (magpsf) and
 * the magnitude of the nearest source in the reference image (magnr). When
 * that reference source is the transient's host/progenitor itself, its total
 * brightness at this epoch is the reference flux plus (isdiffpos true) or
 * minus (isdiffpos false) the difference flux.
 */

/** Magnitude of a flux given the zero point (the magnitude of unit flux). Throws for flux <= 0. */
export function fluxToMag(flux: number, zeroPoint: number): number {
  if (!(flux > 0)) {
    throw new RangeError(`Flux must be positive to have a magnitude, got ${flux}`);
  }
  return zeroPoint - 2.5 * Math.log10(flux);
}

export function magToFlux(mag: number, zeroPoint: number): number {
  return 10 ** (-0.4 * (mag - zeroPoint));
}

/**
 * A reference source farther than this from the candidate is taken to be a
 * different object, so no correction is made (distnr must be strictly below
 * it). 1.4 arcsec is ALeRCE's DISTANCE_THRESHOLD: about 1.4 ZTF pixels
 * (1.01 arcsec each), well inside the ~2 arcsec seeing. ANTARES does correct
 * alerts at distnr = 1.09 arcsec, consistent with this threshold.
 */
export const ZTF_REFERENCE_MATCH_RADIUS_ARCSEC = 1.4;

/**
 * ZTF isdiffpos: 't'/'1' = positive (science minus reference), 'f'/'0' =
 * negative; '-1' (ALeRCE's encoding) is also read as negative.
 */
export type IsDiffPos = 't' | 'f' | '1' | '0' | '-1' | boolean;

export interface ZtfMagnitudeInput {
  /** Nullable because alert fields are; a missing value means no correction. */
  magpsf: number | null | undefined;
  sigmapsf: number | null | undefined;
  magnr: number | null | undefined;
  sigmagnr: number | null | undefined;
  /** Raw alert strings are accepted; anything unrecognised means no correction (null). */
  isdiffpos: IsDiffPos | string | null | undefined;
  /** Distance (arcsec) to the reference source; when omitted no distance check is made. */
  distnr?: number | null;
  /** 5-sigma limiting magnitude of the difference image (ZTF diffmaglim). */
  maglim?: number | null;
}

export interface CorrectedMagnitude {
  mag: number;
  magerr: number;
  /** Brightest total magnitude consistent with the epoch's detection limit (see correctedMagnitudeLimits). */
  magulim?: number;
  /** Faintest total magnitude consistent with the detection limit; absent when unbounded. */
  magllim?: number;
}

/** +1 / -1 for the sign of the difference flux, or null when isdiffpos is not a known encoding. */
function differenceSign(isdiffpos: IsDiffPos | string | null | undefined): 1 | -1 | null {
  if (isdiffpos === true || isdiffpos === 't' || isdiffpos === '1') return 1;
  if (isdiffpos === false || isdiffpos === 'f' || isdiffpos === '0' || isdiffpos === '-1') return -1;
  return null;
}

/** ZTF marks missing values with null or negative sentinels such as -999. */
function isUsable(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function hasNearbyReference(distnr: number | null | undefined): boolean {
  if (distnr === undefined) return true;
  return isUsable(distnr) && distnr < ZTF_REFERENCE_MATCH_RADIUS_ARCSEC;
}

/** Flux on the scale where magnitude 0 has flux 1; zero points cancel in the correction. */
function relativeFlux(mag: number): number {
  return 10 ** (-0.4 * mag);
}

/**
 * Bounds on the total (reference + difference) magnitude from the detection
 * limit alone, usable for non-detections too. ANTARES semantics, checked
 * against ANTARES' published `ant_magulim_corrected` / `ant_magllim_corrected`:
 * a change smaller than the limiting flux F_lim = 10^(-0.4 maglim) would not
 * have been detected, so the source's flux lies within F_ref +/- F_lim:
 *   magulim = -2.5 log10(F_ref + F_lim)   ("upper" in flux: the bright bound)
 *   magllim = -2.5 log10(F_ref - F_lim)   (the faint bound; omitted when F_ref <= F_lim,
 *                                          i.e. the source could have vanished)
 * Returns null when there is no usable reference source or limit.
 */
export function correctedMagnitudeLimits(input: {
  magnr: number | null | undefined;
  maglim: number | null | undefined;
  distnr?: number | null;
}): { magulim: number; magllim?: number } | null {
  if (!isUsable(input.magnr) || !isUsable(input.maglim) || !hasNearbyReference(input.distnr)) return null;
  const referenceFlux = relativeFlux(input.magnr);
  const limitFlux = relativeFlux(input.maglim);
  const magulim = -2.5 * Math.log10(referenceFlux + limitFlux);
  const faintFlux = referenceFlux - limitFlux;
  return faintFlux > 0 ? { magulim, magllim: -2.5 * Math.log10(faintFlux) } : { magulim };
}

/**
 * Corrected (total) magnitude of a ZTF detection:
 *   F = 10^(-0.4 magnr) +/- 10^(-0.4 magpsf)   (sign from isdiffpos)
 *   mag = -2.5 log10(F)
 *   magerr = sqrt((F_diff sigmapsf)^2 + (F_ref sigmagnr)^2) / F
 * i.e. first-order propagation with the two errors independent (the 1.0857
 * factors of mag<->flux errors cancel). This matches ANTARES'
 * ant_mag_corrected / ant_magerr_corrected; ALeRCE instead *subtracts* the
 * reference term, which can go imaginary, so we do not.
 *
 * Returns null (no meaningful correction) when: magnr or sigmagnr is missing
 * or negative (ZTF's -999 sentinel), distnr is given and is missing/negative
 * or >= ZTF_REFERENCE_MATCH_RADIUS_ARCSEC, magpsf/sigmapsf are not usable,
 * isdiffpos is not a known encoding, or the total flux is not positive (a negative difference brighter than the
 * reference). magulim/magllim are added when maglim is given.
 */
export function correctedMagnitude(input: ZtfMagnitudeInput): CorrectedMagnitude | null {
  const { magpsf, sigmapsf, magnr, sigmagnr } = input;
  if (!isUsable(magnr) || !isUsable(sigmagnr) || !hasNearbyReference(input.distnr)) return null;
  if (!isUsable(magpsf) || !isUsable(sigmapsf)) return null;
  const sign = differenceSign(input.isdiffpos);
  if (sign === null) return null;
  const referenceFlux = relativeFlux(magnr);
  const differenceFlux = relativeFlux(magpsf);
  const totalFlux = referenceFlux + sign * differenceFlux;
  if (!(totalFlux > 0)) return null;

  const mag = -2.5 * Math.log10(totalFlux);
  const magerr = Math.hypot(differenceFlux * sigmapsf, referenceFlux * sigmagnr) / totalFlux;
  const limits = correctedMagnitudeLimits({ magnr, maglim: input.maglim });
  return limits ? { mag, magerr, ...limits } : { mag, magerr };
}
