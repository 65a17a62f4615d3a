/**
 * Angles on the celestial sphere. Every angle in this package is in degrees
 * unless a name says otherwise, so the unit constants below are "degrees per
 * unit": `5 * ARCSEC` is five arcseconds expressed in degrees.
 */
import type { Vec3 } from './vec3.ts';

export const DEG = 1;
export const ARCMIN = 1 / 60;
export const ARCSEC = 1 / 3600;
export const MAS = 1 / 3_600_000;
export const RAD_PER_DEG = Math.PI / 180;
export const DEG_PER_RAD = 180 / Math.PI;

/** Right ascension wrapped into [0, 360). NaN stays NaN. */
export function normalizeRa(ra: number): number {
  // The second % folds the case where ra % 360 + 360 rounds up to exactly 360.
  return ((ra % 360) + 360) % 360;
}

/**
 * Great-circle distance in degrees. Uses the Vincenty form
 * atan2(|p1 x p2|, p1 . p2), which is well conditioned at every separation
 * (acos loses precision near 0 and 180 degrees, asin/haversine near 180).
 * The cross-product component that would suffer from cancellation is
 * rewritten as sin(dDec) + 2 sin(dec1) cos(dec2) sin^2(dRa/2), and both
 * differences are taken in degrees before converting (dec2 - dec1 is exact
 * for nearby values, phi2 - phi1 of rounded radians is not), so the result is
 * limited only by how precisely the inputs themselves are represented.
 */
export function angularSeparationDeg(ra1: number, dec1: number, ra2: number, dec2: number): number {
  const phi1 = dec1 * RAD_PER_DEG;
  const phi2 = dec2 * RAD_PER_DEG;
  const deltaRa = (ra2 - ra1) * RAD_PER_DEG;
  const sinPhi1 = Math.sin(phi1);
  const cosPhi1 = Math.cos(phi1);
  const sinPhi2 = Math.sin(phi2);
  const cosPhi2 = Math.cos(phi2);
  const sinHalfDeltaRa = Math.sin(deltaRa / 2);

  const east = cosPhi2 * Math.sin(deltaRa);
  const north = Math.sin((dec2 - dec1) * RAD_PER_DEG) + 2 * sinPhi1 * cosPhi2 * sinHalfDeltaRa * sinHalfDeltaRa;
  const along = sinPhi1 * sinPhi2 + cosPhi1 * cosPhi2 * Math.cos(deltaRa);
  return Math.atan2(Math.hypot(east, north), along) * DEG_PER_RAD;
}

/**
 * Unit vector (x towards RA 0 / Dec 0, z towards the north pole).
 * RA is reduced to a quadrant first so that multiples of 90 degrees give
 * exact axis components (cos(90 deg) would otherwise be 6e-17, not 0); this
 * matters because HTM root triangles meet exactly on those meridians.
 */
export function radecToUnitVector(raDeg: number, decDeg: number): Vec3 {
  const ra = normalizeRa(raDeg);
  const quadrant = Math.floor(ra / 90);
  const remainder = (ra - quadrant * 90) * RAD_PER_DEG;
  const c = Math.cos(remainder);
  const s = Math.sin(remainder);
  // "0 - x" rather than "-x" so exact zeros stay +0 instead of -0.
  const [cosRa, sinRa] = quadrant === 0 ? [c, s] : quadrant === 1 ? [0 - s, c] : quadrant === 2 ? [0 - c, 0 - s] : [s, 0 - c];
  const dec = decDeg * RAD_PER_DEG;
  const cosDec = Math.cos(dec);
  return [cosDec * cosRa, cosDec * sinRa, Math.sin(dec)];
}

/** Inverse of radecToUnitVector; the vector need not be normalised. */
export function unitVectorToRadec(v: Vec3): { ra: number; dec: number } {
  const ra = normalizeRa(Math.atan2(v[1], v[0]) * DEG_PER_RAD);
  const dec = Math.atan2(v[2], Math.hypot(v[0], v[1])) * DEG_PER_RAD;
  return { ra, dec };
}
