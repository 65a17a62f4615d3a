/**
 * ICRS <-> Galactic (l, b). The galactic frame is the IAU 1958 system as
 * re-expressed in ICRS by the Hipparcos catalogue (ESA 1997, Vol. 1, sec. 1.5.3):
 * north galactic pole at ICRS (192.85948, +27.12825) and the galactic
 * longitude of the north celestial pole 122.93192. The matrix below is that
 * rotation with the full precision used by IAU SOFA/ERFA (iauIcrs2g); rows
 * are the galactic x, y, z axes expressed in ICRS.
 */
import { radecToUnitVector, unitVectorToRadec } from './sphere.ts';
import type { Vec3 } from './vec3.ts';

// The matrix with every digit the reference prints; float64 keeps what it can.
/* eslint-disable no-loss-of-precision */
const ICRS_TO_GALACTIC: readonly Vec3[] = [
  [-0.054875560416215368492398900454, -0.873437090234885048760383168409, -0.483835015548713226831774175116],
  [+0.494109427875583673525222371358, -0.444829629960011178146614061616, +0.746982244497218890527388004556],
  [-0.86766614901900470118161653457, -0.198076373431201528180486091412, +0.455983776175066922272100478348],
];
/* eslint-enable no-loss-of-precision */

function rotate(matrix: readonly Vec3[], v: Vec3): Vec3 {
  return [
    matrix[0][0] * v[0] + matrix[0][1] * v[1] + matrix[0][2] * v[2],
    matrix[1][0] * v[0] + matrix[1][1] * v[1] + matrix[1][2] * v[2],
    matrix[2][0] * v[0] + matrix[2][1] * v[1] + matrix[2][2] * v[2],
  ];
}

function rotateInverse(matrix: readonly Vec3[], v: Vec3): Vec3 {
  // A rotation's inverse is its transpose.
  return [
    matrix[0][0] * v[0] + matrix[1][0] * v[1] + matrix[2][0] * v[2],
    matrix[0][1] * v[0] + matrix[1][1] * v[1] + matrix[2][1] * v[2],
    matrix[0][2] * v[0] + matrix[1][2] * v[1] + matrix[2][2] * v[2],
  ];
}

/** Galactic longitude l in [0, 360) and latitude b in [-90, 90], degrees. */
export function icrsToGalactic(ra: number, dec: number): { l: number; b: number } {
  const { ra: l, dec: b } = unitVectorToRadec(rotate(ICRS_TO_GALACTIC, radecToUnitVector(ra, dec)));
  return { l, b };
}

export function galacticToIcrs(l: number, b: number): { ra: number; dec: number } {
  return unitVectorToRadec(rotateInverse(ICRS_TO_GALACTIC, radecToUnitVector(l, b)));
}
