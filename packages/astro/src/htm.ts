/**
 * Hierarchical Triangular Mesh (Kunszt, Szalay & Thakar), numbered exactly as
 * the JHU/SDSS HTM library (HTMfunc / SkyServer fHtmEq) so ids are
 * interchangeable with SDSS and ANTARES catalogues:
 *
 * - 8 root triangles S0..S3 = ids 8..11, N0..N3 = ids 12..15;
 * - each level appends two bits: child k of (v0, v1, v2) with
 *   w0 = mid(v1, v2), w1 = mid(v0, v2), w2 = mid(v0, v1) is
 *   0: (v0, w2, w1)  1: (v1, w0, w2)  2: (v2, w1, w0)  3: (w0, w1, w2).
 *
 * A level-L id therefore lies in [8 * 4^L, 16 * 4^L). Ids are plain JS
 * numbers, exact up to level 24 (2^52); we use multiplication/division by
 * powers of 4 instead of bit shifts because shifts truncate to 32 bits.
 */
import { radecToUnitVector } from './sphere.ts';
import { add, hypot3, normalize, type Vec3 } from './vec3.ts';

export type Triangle = readonly [Vec3, Vec3, Vec3];

export const HTM_DEFAULT_LEVEL = 16;
/** Deepest level whose ids (< 16 * 4^24 = 2^52) are exact JS integers. */
export const HTM_MAX_LEVEL = 24;

const V0: Vec3 = [0, 0, 1];
const V1: Vec3 = [1, 0, 0];
const V2: Vec3 = [0, 1, 0];
const V3: Vec3 = [-1, 0, 0];
const V4: Vec3 = [0, -1, 0];
const V5: Vec3 = [0, 0, -1];

/** Indexed by root id - 8: S0, S1, S2, S3, N0, N1, N2, N3. */
const ROOT_TRIANGLES: readonly Triangle[] = [
  [V1, V5, V2],
  [V2, V5, V3],
  [V3, V5, V4],
  [V4, V5, V1],
  [V1, V0, V4],
  [V4, V0, V3],
  [V3, V0, V2],
  [V2, V0, V1],
];

export const HTM_ROOT_IDS: readonly number[] = [8, 9, 10, 11, 12, 13, 14, 15];

/**
 * Same tolerance as the JHU library's isinside(): a point within ~1e-15 of an
 * edge counts as inside, so edge points are never rejected by every child.
 */
const INSIDE_TOLERANCE = 1e-15;

export function htmRootTriangle(rootId: number): Triangle {
  const triangle = ROOT_TRIANGLES[rootId - 8];
  if (!Number.isInteger(rootId) || triangle === undefined) {
    throw new RangeError(`HTM root id must be an integer from 8 to 15, got ${rootId}`);
  }
  return triangle;
}

function midpoint(a: Vec3, b: Vec3): Vec3 {
  return normalize(add(a, b));
}

/** The 4 children in id order; shared by lookup and cover so both see bit-identical vertices. */
export function htmChildTriangles(parent: Triangle): [Triangle, Triangle, Triangle, Triangle] {
  const [v0, v1, v2] = parent;
  const w0 = midpoint(v1, v2);
  const w1 = midpoint(v0, v2);
  const w2 = midpoint(v0, v1);
  return [
    [v0, w2, w1],
    [v1, w0, w2],
    [v2, w1, w0],
    [w0, w1, w2],
  ];
}

/**
 * Root selection by octant, as in the JHU library's startpane(): ties on the
 * equator (z = 0) go north, ties on the x/y axes follow the >= / > pattern
 * below. The exact pole (x = y = 0) is treated as lying on the RA = 0
 * meridian (N3 / S0); radecToUnitVector never produces it exactly because
 * cos(90 deg) is 6e-17, which lands on the same choice for RA in [0, 90).
 */
function rootIdForVector(point: Vec3): number {
  const x = point[0];
  const y = point[1];
  const north = point[2] >= 0;
  if (x > 0 && y >= 0) return north ? 15 : 8;
  if (x <= 0 && y > 0) return north ? 14 : 9;
  if (x < 0 && y <= 0) return north ? 13 : 10;
  if (x >= 0 && y < 0) return north ? 12 : 11;
  return north ? 15 : 8;
}

function assertLevel(level: number): void {
  if (!Number.isInteger(level) || level < 0 || level > HTM_MAX_LEVEL) {
    throw new RangeError(`HTM level must be an integer from 0 to ${HTM_MAX_LEVEL}, got ${level}`);
  }
}

/** HTM id of a unit vector; see htmId. */
export function htmIdOfVector(point: Vec3, level: number = HTM_DEFAULT_LEVEL): number {
  assertLevel(level);
  return descend(point, level, undefined);
}

/**
 * The trixels holding a unit vector at every level from `fromLevel` (default 0) to `level` (index =
 * level - fromLevel), as htmIdOfVector picks them, with their corners: one descent for callers that
 * look at several levels.
 */
export function htmPathOfVector(point: Vec3, level: number, fromLevel = 0): Array<{ id: number; triangle: Triangle }> {
  assertLevel(level);
  const path: Array<{ id: number; triangle: Triangle }> = [];
  descend(point, level, path, fromLevel);
  return path;
}

/** The level-`level` trixel holding a unit vector, with its corners (one descent: htmIdOfVector's). */
export function htmTrixelOfVector(point: Vec3, level: number): { id: number; triangle: Triangle } {
  assertLevel(level);
  const id = descend(point, level, undefined);
  const c = LAST_CORNERS;
  return {
    id,
    triangle: [
      [c[0], c[1], c[2]],
      [c[3], c[4], c[5]],
      [c[6], c[7], c[8]],
    ],
  };
}

/** The corners of the last trixel `descend` reached (v0, v1, v2 as x, y, z each). */
const LAST_CORNERS = new Float64Array(9);

/**
 * The descent from the root trixel holding `point` to its level-`level` trixel; each level's trixel
 * from `fromLevel` on is pushed onto `path` when one is given, and the last one's corners are left in LAST_CORNERS. In
 * plain numbers, with the arithmetic of htmChildTriangles (midpoints) and of the JHU child test (the
 * first child the point is inside, within INSIDE_TOLERANCE; if rounding leaves it outside all four,
 * the one it is least outside of) operation for operation, so that ids and corners are bit for bit
 * those of a descent through htmChildTriangles (htm.test.ts compares them). Written out because every
 * alert and every locus takes this descent, and the arrays of vertices, children and edge normals
 * that each level allocated were about 7 % of all that ingestion allocated.
 */
function descend(point: Vec3, level: number, path: Array<{ id: number; triangle: Triangle }> | undefined, fromLevel = 0): number {
  let id = rootIdForVector(point);
  const root = htmRootTriangle(id);
  // Indexed, not destructured: array destructuring goes through an iterator, which allocated.
  let ax = root[0][0];
  let ay = root[0][1];
  let az = root[0][2];
  let bx = root[1][0];
  let by = root[1][1];
  let bz = root[1][2];
  let cx = root[2][0];
  let cy = root[2][1];
  let cz = root[2][2];
  const px = point[0];
  const py = point[1];
  const pz = point[2];
  if (fromLevel === 0) path?.push({ id, triangle: root });
  for (let depth = 0; depth < level; depth++) {
    // w0 = mid(v1, v2), w1 = mid(v0, v2), w2 = mid(v0, v1), each normalize(add(...)) as midpoint() does.
    let x = bx + cx;
    let y = by + cy;
    let z = bz + cz;
    let f = 1 / hypot3(x, y, z);
    const w0x = x * f;
    const w0y = y * f;
    const w0z = z * f;
    x = ax + cx;
    y = ay + cy;
    z = az + cz;
    f = 1 / hypot3(x, y, z);
    const w1x = x * f;
    const w1y = y * f;
    const w1z = z * f;
    x = ax + bx;
    y = ay + by;
    z = az + bz;
    f = 1 / hypot3(x, y, z);
    const w2x = x * f;
    const w2y = y * f;
    const w2z = z * f;
    // Children in id order: 0 (v0, w2, w1), 1 (v1, w0, w2), 2 (v2, w1, w0), 3 (w0, w1, w2); the first
    // of equals when the point is outside all four.
    let chosen = 0;
    const i0 = insidenessOf(px, py, pz, ax, ay, az, w2x, w2y, w2z, w1x, w1y, w1z);
    if (!(i0 >= -INSIDE_TOLERANCE)) {
      let best = i0 > -Infinity ? i0 : -Infinity;
      const i1 = insidenessOf(px, py, pz, bx, by, bz, w0x, w0y, w0z, w2x, w2y, w2z);
      if (i1 >= -INSIDE_TOLERANCE) chosen = 1;
      else {
        if (i1 > best) {
          best = i1;
          chosen = 1;
        }
        const i2 = insidenessOf(px, py, pz, cx, cy, cz, w1x, w1y, w1z, w0x, w0y, w0z);
        if (i2 >= -INSIDE_TOLERANCE) chosen = 2;
        else {
          if (i2 > best) {
            best = i2;
            chosen = 2;
          }
          const i3 = insidenessOf(px, py, pz, w0x, w0y, w0z, w1x, w1y, w1z, w2x, w2y, w2z);
          if (i3 >= -INSIDE_TOLERANCE || i3 > best) chosen = 3;
        }
      }
    }
    // The chosen child's corners (v0, v1, v2) become the trixel's.
    if (chosen === 0) {
      bx = w2x;
      by = w2y;
      bz = w2z;
      cx = w1x;
      cy = w1y;
      cz = w1z;
    } else if (chosen === 1) {
      ax = bx;
      ay = by;
      az = bz;
      bx = w0x;
      by = w0y;
      bz = w0z;
      cx = w2x;
      cy = w2y;
      cz = w2z;
    } else if (chosen === 2) {
      ax = cx;
      ay = cy;
      az = cz;
      bx = w1x;
      by = w1y;
      bz = w1z;
      cx = w0x;
      cy = w0y;
      cz = w0z;
    } else {
      ax = w0x;
      ay = w0y;
      az = w0z;
      bx = w1x;
      by = w1y;
      bz = w1z;
      cx = w2x;
      cy = w2y;
      cz = w2z;
    }
    id = id * 4 + chosen;
    if (depth + 1 >= fromLevel)
      path?.push({
        id,
        triangle: [
          [ax, ay, az],
          [bx, by, bz],
          [cx, cy, cz],
        ],
      });
  }
  LAST_CORNERS[0] = ax;
  LAST_CORNERS[1] = ay;
  LAST_CORNERS[2] = az;
  LAST_CORNERS[3] = bx;
  LAST_CORNERS[4] = by;
  LAST_CORNERS[5] = bz;
  LAST_CORNERS[6] = cx;
  LAST_CORNERS[7] = cy;
  LAST_CORNERS[8] = cz;
  return id;
}

/** How far inside [a, b, c] p is, in plain numbers: min over the edges of dot(cross(u, v), p), as vec3.ts computes them. */
function insidenessOf(
  px: number,
  py: number,
  pz: number,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  cx: number,
  cy: number,
  cz: number,
): number {
  const ab = (ay * bz - az * by) * px + (az * bx - ax * bz) * py + (ax * by - ay * bx) * pz;
  const bc = (by * cz - bz * cy) * px + (bz * cx - bx * cz) * py + (bx * cy - by * cx) * pz;
  const ca = (cy * az - cz * ay) * px + (cz * ax - cx * az) * py + (cx * ay - cy * ax) * pz;
  return Math.min(ab, bc, ca);
}

/** HTM id of (RA, Dec) in degrees at the given level (default 16). */
export function htmId(raDeg: number, decDeg: number, level: number = HTM_DEFAULT_LEVEL): number {
  if (!Number.isFinite(raDeg) || !Number.isFinite(decDeg)) {
    throw new RangeError(`RA and Dec must be finite numbers, got ${raDeg}, ${decDeg}`);
  }
  if (decDeg < -90 || decDeg > 90) {
    throw new RangeError(`Declination must be between -90 and 90 degrees, got ${decDeg}`);
  }
  return htmIdOfVector(radecToUnitVector(raDeg, decDeg), level);
}

/** Level of a valid HTM id; throws for numbers that are not HTM ids. */
export function htmLevelOfId(id: number): number {
  return decomposeId(id).childIndices.length;
}

function decomposeId(id: number): { rootId: number; childIndices: number[] } {
  if (!Number.isSafeInteger(id) || id < 8) {
    throw new RangeError(`Not an HTM id: ${id}`);
  }
  const childIndices: number[] = [];
  let rest = id;
  while (rest >= 16) {
    childIndices.push(rest % 4);
    rest = Math.floor(rest / 4);
  }
  if (rest < 8) {
    // The leading two bits must be 10 (south) or 11 (north).
    throw new RangeError(`Not an HTM id: ${id}`);
  }
  return { rootId: rest, childIndices: childIndices.reverse() };
}

/** Corner vectors (v0, v1, v2) of a trixel, computed exactly as the lookup computes them. */
export function htmTrixelVertices(id: number): Triangle {
  const { rootId, childIndices } = decomposeId(id);
  let triangle = htmRootTriangle(rootId);
  for (const k of childIndices) triangle = htmChildTriangles(triangle)[k];
  return triangle;
}

/** SDSS-style trixel name, e.g. 'N32000'; handy for comparing with published names. */
export function htmIdToName(id: number): string {
  const { rootId, childIndices } = decomposeId(id);
  const hemisphere = rootId >= 12 ? 'N' : 'S';
  return `${hemisphere}${rootId % 4}${childIndices.join('')}`;
}

export function htmNameToId(name: string): number {
  const match = /^([NS])([0-3]+)$/.exec(name);
  if (!match || match[2].length - 1 > HTM_MAX_LEVEL) {
    throw new RangeError(`Not an HTM name: "${name}"`);
  }
  let id = match[1] === 'N' ? 3 : 2;
  for (const digit of match[2]) id = id * 4 + Number(digit);
  return id;
}

/** Inclusive range of level-`targetLevel` ids covered by trixel `id`. */
export function htmIdRangeAtLevel(id: number, targetLevel: number): [number, number] {
  assertLevel(targetLevel);
  const level = htmLevelOfId(id);
  if (level > targetLevel) {
    throw new RangeError(`Trixel ${id} is at level ${level}, deeper than ${targetLevel}`);
  }
  const factor = 4 ** (targetLevel - level);
  return [id * factor, (id + 1) * factor - 1];
}
