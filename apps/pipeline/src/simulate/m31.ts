// The Andromeda galaxy (M31) in the simulated sky: a small population of novae inside its disk, so the
// demo has objects for the shipped `in_m31` filter (which uses the same ellipse). M31 novae are the
// classic extragalactic nova sample: dozens a year, concentrated towards the bulge.
import type { Rng } from './prng.ts';

/** OpenNGC's NGC 224 (D25 isophote): centre, axes [deg], position angle (north through east). */
export const M31 = {
  ra: 10.684792,
  dec: 41.269056,
  semiMajorDeg: 177.83 / 120,
  semiMinorDeg: 69.66 / 120,
  paDeg: 35,
} as const;

/** Every M31_EVERY-th object (by index) is an M31 nova: 22 in the 3,300-object demo. */
export const M31_EVERY = 150;

export function isM31Object(index: number): boolean {
  return index % M31_EVERY === M31_EVERY - 1;
}

const RAD = Math.PI / 180;

/**
 * A random position inside the ellipse (elliptical radius <= 0.95, away from the edge), with surface
 * density falling as 1 / radius: novae follow the bulge light. Exact inverse gnomonic projection.
 */
export function m31Position(rng: Rng): { ra: number; dec: number } {
  const r = 0.95 * rng.next();
  const theta = rng.uniform(0, 2 * Math.PI);
  const major = r * M31.semiMajorDeg * Math.cos(theta);
  const minor = r * M31.semiMinorDeg * Math.sin(theta);
  const pa = M31.paDeg * RAD;
  const xi = (major * Math.sin(pa) + minor * Math.cos(pa)) * RAD; // east
  const eta = (major * Math.cos(pa) - minor * Math.sin(pa)) * RAD; // north
  const rho = Math.hypot(xi, eta);
  const c = Math.atan(rho);
  const dec0 = M31.dec * RAD;
  if (rho === 0) return { ra: M31.ra, dec: M31.dec };
  const dec = Math.asin(Math.cos(c) * Math.sin(dec0) + (eta * Math.sin(c) * Math.cos(dec0)) / rho);
  const ra = M31.ra * RAD + Math.atan2(xi * Math.sin(c), rho * Math.cos(dec0) * Math.cos(c) - eta * Math.sin(dec0) * Math.sin(c));
  return { ra: (((ra / RAD) % 360) + 360) % 360, dec: dec / RAD };
}
