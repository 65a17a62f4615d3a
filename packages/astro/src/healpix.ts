// HEALPix in the NESTED scheme (Górski et al. 2005), the pixelisation of gravitational-wave sky maps:
// pixel of a position and centre of a pixel at every order up to 29, NUNIQ multi-order pixel ids, and
// the credible regions of a probability map. Pixel ids are BigInt: at order 29 they need 62 bits.
import { RAD_PER_DEG } from './sphere.ts';

export const HEALPIX_MAX_ORDER = 29;
const HALF_PI = Math.PI / 2;

// Bit spreading for the NESTED id: x in the even bits, y in the odd bits of each face's index.
const SPREAD = new Uint32Array(256);
for (let i = 0; i < 256; i++) {
  let v = 0;
  for (let b = 0; b < 8; b++) if (i & (1 << b)) v |= 1 << (2 * b);
  SPREAD[i] = v;
}
function spread(x: number): bigint {
  let result = 0n;
  for (let shift = 0; x > 0; shift += 16, x = Math.floor(x / 256)) result |= BigInt(SPREAD[x & 255]) << BigInt(shift);
  return result;
}
function compress(v: bigint): number {
  let x = 0;
  for (let factor = 1; v > 0n; v >>= 2n, factor *= 2) if (v & 1n) x += factor;
  return x;
}

function checkOrder(order: number): number {
  if (!Number.isInteger(order) || order < 0 || order > HEALPIX_MAX_ORDER)
    throw new RangeError(`HEALPix order must be 0..${HEALPIX_MAX_ORDER}, got ${order}`);
  return 2 ** order;
}

/** Number of pixels of the whole sphere at an order: 12 * 4^order. */
export function healpixPixelCount(order: number): bigint {
  checkOrder(order);
  return 12n * 4n ** BigInt(order);
}

/** Area of one pixel at an order, in steradians. */
export function healpixPixelAreaSr(order: number): number {
  checkOrder(order);
  return (4 * Math.PI) / (12 * 4 ** order);
}

/** The face and in-face coordinates of a position at an order (HEALPix ang2pix, NESTED). */
function faceXY(nside: number, raDeg: number, decDeg: number): [number, number, number] {
  const z = Math.sin(decDeg * RAD_PER_DEG);
  const za = Math.abs(z);
  let tt = ((raDeg * RAD_PER_DEG) / HALF_PI) % 4;
  if (tt < 0) tt += 4;
  if (za <= 2 / 3) {
    const temp1 = nside * (0.5 + tt);
    const temp2 = nside * z * 0.75;
    const jp = Math.floor(temp1 - temp2);
    const jm = Math.floor(temp1 + temp2);
    const ifp = Math.floor(jp / nside);
    const ifm = Math.floor(jm / nside);
    const face = ifp === ifm ? ifp | 4 : ifp < ifm ? ifp : ifm + 8;
    return [face, jm - ifm * nside, nside - (jp - ifp * nside) - 1];
  }
  const ntt = Math.min(3, Math.floor(tt));
  const tp = tt - ntt;
  // sqrt(3 (1 - |z|)) computed from cos(dec) near the poles, where 1 - |z| loses precision.
  const cosDec = Math.cos(decDeg * RAD_PER_DEG);
  const tmp = nside * (za > 0.99 ? (cosDec * Math.sqrt(3)) / Math.sqrt(1 + za) : Math.sqrt(3 * (1 - za)));
  const jp = Math.min(nside - 1, Math.floor(tp * tmp));
  const jm = Math.min(nside - 1, Math.floor((1 - tp) * tmp));
  return z >= 0 ? [ntt, nside - jm - 1, nside - jp - 1] : [ntt + 8, jp, jm];
}

/** The NESTED pixel holding a position (degrees). */
export function healpixNestPixel(order: number, raDeg: number, decDeg: number): bigint {
  const nside = checkOrder(order);
  const [face, ix, iy] = faceXY(nside, raDeg, decDeg);
  return BigInt(face) * BigInt(nside) * BigInt(nside) + (spread(ix) | (spread(iy) << 1n));
}

/** Spread 8 bits at a time into a number: exact while the result stays below 2^53. */
function spreadNumber(x: number): number {
  let result = 0;
  for (let factor = 1; x > 0; factor *= 65536, x = Math.floor(x / 256)) result += SPREAD[x & 255] * factor;
  return result;
}

/** The same as healpixNestPixel as a plain number, for orders up to 24 (sky maps; faster). */
export function healpixNestPixelNumber(order: number, raDeg: number, decDeg: number): number {
  const nside = checkOrder(order);
  if (order > 24) throw new RangeError(`healpixNestPixelNumber is exact up to order 24, not ${order}`);
  const [face, ix, iy] = faceXY(nside, raDeg, decDeg);
  return face * nside * nside + spreadNumber(ix) + 2 * spreadNumber(iy);
}

// Face layout (HEALPix's jrll and jpll): the ring index of each base pixel's corner, in units of nside,
// and its longitude index.
const FACE_RING = [2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4];
const FACE_PHI = [1, 3, 5, 7, 0, 2, 4, 6, 1, 3, 5, 7];

/** The centre of a NESTED pixel, in degrees. */
export function healpixNestCenter(order: number, pixel: bigint): { ra: number; dec: number } {
  const nside = checkOrder(order);
  const perFace = BigInt(nside) * BigInt(nside);
  if (pixel < 0n || pixel >= 12n * perFace) throw new RangeError(`pixel ${pixel} is outside order ${order}`);
  const face = Number(pixel / perFace);
  const inFace = pixel % perFace;
  const ix = compress(inFace & 0x5555555555555555n);
  const iy = compress((inFace >> 1n) & 0x5555555555555555n);
  const jr = FACE_RING[face] * nside - ix - iy - 1;
  let z: number;
  let nr: number;
  let kshift: number;
  if (jr < nside) {
    nr = jr;
    z = 1 - (nr * nr) / (3 * nside * nside);
    kshift = 0;
  } else if (jr > 3 * nside) {
    nr = 4 * nside - jr;
    z = (nr * nr) / (3 * nside * nside) - 1;
    kshift = 0;
  } else {
    nr = nside;
    z = ((2 * nside - jr) * 2) / (3 * nside);
    kshift = (jr - nside) & 1;
  }
  let jp = Math.floor((FACE_PHI[face] * nr + ix - iy + 1 + kshift) / 2);
  if (jp > 4 * nside) jp -= 4 * nside;
  if (jp < 1) jp += 4 * nside;
  const phi = (jp - (kshift + 1) * 0.5) * (HALF_PI / nr);
  return { ra: (phi / RAD_PER_DEG) % 360, dec: Math.asin(Math.max(-1, Math.min(1, z))) / RAD_PER_DEG };
}

/** NUNIQ id of a pixel: 4 * 4^order + pixel. */
export function healpixUniq(order: number, pixel: bigint): bigint {
  checkOrder(order);
  return 4n * 4n ** BigInt(order) + pixel;
}

/** Order and NESTED pixel of a NUNIQ id. */
export function healpixFromUniq(uniq: bigint): { order: number; pixel: bigint } {
  if (uniq < 4n) throw new RangeError(`${uniq} is not a NUNIQ id`);
  let order = 0;
  while (4n * 4n ** BigInt(order + 1) <= uniq) order++;
  checkOrder(order);
  return { order, pixel: uniq - 4n * 4n ** BigInt(order) };
}
