/**
 * Difference-image fluxes in nanojansky, the unit Rubin reports (psfFlux): one scale for both
 * surveys. ZTF reports the magnitude of |difference flux| (magpsf, AB, calibrated with the
 * exposure's zero point magzpsci already) and its sign in isdiffpos, so its flux is recovered from
 * the AB zero point of the nanojansky: m_AB = 31.4 - 2.5 log10(f / nJy) (3631 Jy is AB 0).
 */
export const NJY_AB_ZERO_POINT = 31.4;

const MAG_PER_LN_FLUX = 2.5 / Math.LN10;

/** Flux in nJy of an AB magnitude. */
export function abMagToNanojansky(mag: number): number {
  return 10 ** (-0.4 * (mag - NJY_AB_ZERO_POINT));
}

export interface Flux {
  flux: number;
  /** One-sigma uncertainty, when the magnitude error was given. */
  fluxErr?: number;
}

/** +1 / -1 from ZTF's isdiffpos encodings ('t'/'1'/true positive; 'f'/'0'/'-1'/false negative), else null. */
export function isDiffPosSign(value: unknown): 1 | -1 | null {
  if (value === true || value === 't' || value === '1' || value === 1) return 1;
  if (value === false || value === 'f' || value === '0' || value === '-1' || value === 0 || value === -1) return -1;
  return null;
}

/**
 * A ZTF detection's difference flux in nJy: sign(isdiffpos) * 10^(-0.4 (magpsf - 31.4)), and its
 * error from sigmapsf (d flux = flux * ln(10) / 2.5 * d mag). Null without magpsf or a known sign.
 */
export function ztfDifferenceFlux(magpsf: unknown, sigmapsf: unknown, isdiffpos: unknown): Flux | null {
  const sign = isDiffPosSign(isdiffpos);
  if (typeof magpsf !== 'number' || !Number.isFinite(magpsf) || sign === null) return null;
  const flux = sign * abMagToNanojansky(magpsf);
  const fluxErr =
    typeof sigmapsf === 'number' && Number.isFinite(sigmapsf) && sigmapsf >= 0 ? (Math.abs(flux) * sigmapsf) / MAG_PER_LN_FLUX : undefined;
  return { flux, fluxErr };
}

/** The flux (nJy) below which a non-detection at limiting magnitude `maglim` lies (ZTF diffmaglim is 5 sigma). */
export function limitingFlux(maglim: number): number {
  return abMagToNanojansky(maglim);
}
