/**
 * Cone-search cover: inclusive ranges of level-L HTM ids (default 16) whose
 * union contains every level-L trixel touching a circle on the sky.
 *
 * Guarantee: a superset. Every trixel that intersects the circle is inside
 * some range; ranges may also contain trixels that do not (the caller must
 * still filter candidates by exact distance).
 *
 * Strategy: descend from the 8 roots, classifying each trixel as outside /
 * fully inside / partial. Inside trixels are emitted whole (a level-k trixel
 * is the contiguous level-L range [id * 4^(L-k), (id+1) * 4^(L-k) - 1]);
 * partial ones are refined level by level while the merged range count stays
 * within `maxRanges`. When refining a whole level would exceed the budget we
 * refine individual partial trixels that still fit, then emit the remaining
 * partial trixels whole.
 */
import {
  HTM_DEFAULT_LEVEL,
  HTM_MAX_LEVEL,
  HTM_ROOT_IDS,
  htmChildTriangles,
  htmPathOfVector,
  htmRootTriangle,
  htmTrixelOfVector,
  type Triangle,
} from './htm.ts';
import { RAD_PER_DEG, radecToUnitVector } from './sphere.ts';
import { capIntersectsTriangle, type SphericalCap } from './spherical-cap.ts';
import { cross, dot, negate, normalize, type Vec3 } from './vec3.ts';

export interface HtmCoverOptions {
  /** Level of the returned ids; default 16. */
  level?: number;
  /** Upper bound on the number of ranges returned; default 48. */
  maxRanges?: number;
}

export type HtmIdRange = [number, number];

export const HTM_COVER_DEFAULT_MAX_RANGES = 48;

/**
 * Radius slack (radians, ~0.2 mas) added on both sides of the circle's edge so
 * rounding in vertex/edge tests can only turn "outside" into "partial" and
 * "inside" into "partial", never the reverse. It is far below a level-16
 * trixel (~5 arcsec) so it costs nothing in selectivity.
 */
const RADIUS_MARGIN_RAD = 1e-9;

interface Trixel {
  id: number;
  level: number;
  triangle: Triangle;
}

type Classification = 'outside' | 'inside' | 'partial';

function classify(triangle: Triangle, circle: SphericalCap, outsideOfCircle: SphericalCap): Classification {
  if (!capIntersectsTriangle(circle, triangle)) return 'outside';
  // Fully inside <=> the triangle never reaches the region beyond the circle,
  // which is the cap around the antipode with radius PI - r.
  if (!capIntersectsTriangle(outsideOfCircle, triangle)) return 'inside';
  return 'partial';
}

function rangeOf(trixel: Trixel, targetLevel: number): HtmIdRange {
  const factor = 4 ** (targetLevel - trixel.level);
  return [trixel.id * factor, (trixel.id + 1) * factor - 1];
}

/** Sorted, with overlapping or touching ranges ([a, b], [b + 1, c]) merged. */
function mergeRanges(ranges: HtmIdRange[]): HtmIdRange[] {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const merged: HtmIdRange[] = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && start <= last[1] + 1) {
      last[1] = Math.max(last[1], end);
    } else {
      merged.push([start, end]);
    }
  }
  return merged;
}

function rangesOf(trixels: Trixel[], targetLevel: number): HtmIdRange[] {
  return mergeRanges(trixels.map((trixel) => rangeOf(trixel, targetLevel)));
}

/**
 * Last-resort budget enforcement (only reachable when maxRanges is smaller
 * than what the 8 roots need): close the smallest gaps first. Closing a gap
 * only adds ids, so the result is still a superset.
 */
function closeSmallestGaps(ranges: HtmIdRange[], maxRanges: number): HtmIdRange[] {
  const result = ranges.map(([start, end]): HtmIdRange => [start, end]);
  while (result.length > maxRanges) {
    let smallestGapIndex = 0;
    for (let i = 1; i < result.length - 1; i++) {
      const gap = result[i + 1][0] - result[i][1];
      if (gap < result[smallestGapIndex + 1][0] - result[smallestGapIndex][1]) smallestGapIndex = i;
    }
    result[smallestGapIndex][1] = result[smallestGapIndex + 1][1];
    result.splice(smallestGapIndex + 1, 1);
  }
  return result;
}

/**
 * The disjoint level-L ranges of the current trixels, kept sorted, with the
 * merged-range count maintained incrementally: merged count = 1 + number of
 * gaps between consecutive ranges. Replacing a parent's range by its
 * children's (a subset of it) only changes gaps next to that range, so each
 * trial costs O(children) plus a binary search instead of a full re-merge.
 */
class TrixelRangeLayout {
  private readonly ranges: HtmIdRange[];
  private gaps: number;

  constructor(unsortedDisjointRanges: HtmIdRange[]) {
    this.ranges = [...unsortedDisjointRanges].sort((x, y) => x[0] - y[0]);
    this.gaps = countGaps(this.ranges);
  }

  get mergedCount(): number {
    return this.ranges.length === 0 ? 0 : this.gaps + 1;
  }

  /**
   * Replace `parent` by `children` if the merged count stays <= maxRanges
   * (or, when already over budget, does not grow).
   */
  tryReplace(parent: HtmIdRange, children: HtmIdRange[], maxRanges: number): boolean {
    const index = this.indexOf(parent[0]);
    const before = this.ranges.slice(Math.max(0, index - 1), index);
    const after = this.ranges.slice(index + 1, index + 2);
    const sortedChildren = [...children].sort((x, y) => x[0] - y[0]);
    const oldGaps = countGaps([...before, parent, ...after]);
    const newGaps = countGaps([...before, ...sortedChildren, ...after]);
    const newLength = this.ranges.length - 1 + sortedChildren.length;
    const newCount = newLength === 0 ? 0 : this.gaps - oldGaps + newGaps + 1;
    if (newCount > Math.max(maxRanges, this.mergedCount)) return false;
    this.ranges.splice(index, 1, ...sortedChildren);
    this.gaps += newGaps - oldGaps;
    return true;
  }

  private indexOf(start: number): number {
    let low = 0;
    let high = this.ranges.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const candidate = this.ranges[middle][0];
      if (candidate === start) return middle;
      if (candidate < start) low = middle + 1;
      else high = middle - 1;
    }
    throw new Error(`HTM cover bookkeeping lost the range starting at ${start}`);
  }
}

function countGaps(sortedRanges: HtmIdRange[]): number {
  let gaps = 0;
  for (let i = 1; i < sortedRanges.length; i++) {
    if (sortedRanges[i][0] > sortedRanges[i - 1][1] + 1) gaps++;
  }
  return gaps;
}

function validateCoverArguments(raDeg: number, decDeg: number, radiusDeg: number, level: number, maxRanges: number): void {
  if (!Number.isFinite(raDeg) || !Number.isFinite(decDeg)) {
    throw new RangeError(`RA and Dec must be finite numbers, got ${raDeg}, ${decDeg}`);
  }
  if (decDeg < -90 || decDeg > 90) {
    throw new RangeError(`Declination must be between -90 and 90 degrees, got ${decDeg}`);
  }
  if (!(radiusDeg >= 0) || radiusDeg === Infinity) {
    throw new RangeError(`Radius must be a finite number of degrees >= 0, got ${radiusDeg}`);
  }
  if (!Number.isInteger(level) || level < 0 || level > HTM_MAX_LEVEL) {
    throw new RangeError(`HTM level must be an integer from 0 to ${HTM_MAX_LEVEL}, got ${level}`);
  }
  if (!Number.isInteger(maxRanges) || maxRanges < 1) {
    throw new RangeError(`maxRanges must be a positive integer, got ${maxRanges}`);
  }
}

export function htmCircleCover(raDeg: number, decDeg: number, radiusDeg: number, options: HtmCoverOptions = {}): HtmIdRange[] {
  const targetLevel = options.level ?? HTM_DEFAULT_LEVEL;
  const maxRanges = options.maxRanges ?? HTM_COVER_DEFAULT_MAX_RANGES;
  validateCoverArguments(raDeg, decDeg, radiusDeg, targetLevel, maxRanges);
  const roots = HTM_ROOT_IDS.map((id) => ({ id, level: 0, triangle: htmRootTriangle(id) }));
  return walkCover(roots, radecToUnitVector(raDeg, decDeg), radiusDeg, targetLevel, maxRanges);
}

/** The cover's walk down to `targetLevel`, from trixels that together hold every trixel touching the cap. */
function walkCover(start: Trixel[], center: Vec3, radiusDeg: number, targetLevel: number, maxRanges: number): HtmIdRange[] {
  const radius = Math.min(radiusDeg, 180) * RAD_PER_DEG;
  const circle: SphericalCap = { center, radius: radius + RADIUS_MARGIN_RAD };
  const outsideOfCircle: SphericalCap = { center: negate(center), radius: Math.PI - radius + RADIUS_MARGIN_RAD };

  const inside: Trixel[] = [];
  let partial: Trixel[] = [];
  const sortInto = (trixel: Trixel, insideList: Trixel[], partialList: Trixel[]): void => {
    const verdict = classify(trixel.triangle, circle, outsideOfCircle);
    if (verdict === 'inside') insideList.push(trixel);
    else if (verdict === 'partial') partialList.push(trixel);
  };
  for (const trixel of start) sortInto(trixel, inside, partial);

  const childrenOf = (parent: Trixel): { inside: Trixel[]; partial: Trixel[] } => {
    const result = { inside: [] as Trixel[], partial: [] as Trixel[] };
    htmChildTriangles(parent.triangle).forEach((triangle, k) =>
      sortInto({ id: parent.id * 4 + k, level: parent.level + 1, triangle }, result.inside, result.partial),
    );
    return result;
  };

  for (let level = Math.min(...start.map((t) => t.level)); level < targetLevel && partial.length > 0; level++) {
    const refined = partial.map(childrenOf);
    const nextInside = refined.flatMap((r) => r.inside);
    const nextPartial = refined.flatMap((r) => r.partial);
    if (rangesOf([...inside, ...nextInside, ...nextPartial], targetLevel).length <= maxRanges) {
      inside.push(...nextInside);
      partial = nextPartial;
      continue;
    }
    // The whole level does not fit: refine single trixels while the budget allows.
    const layout = new TrixelRangeLayout([...inside, ...partial].map((t) => rangeOf(t, targetLevel)));
    const stillPartial: Trixel[] = [];
    refined.forEach((children, index) => {
      const parent = partial[index];
      const childRanges = [...children.inside, ...children.partial].map((t) => rangeOf(t, targetLevel));
      if (layout.tryReplace(rangeOf(parent, targetLevel), childRanges, maxRanges)) {
        inside.push(...children.inside);
        stillPartial.push(...children.partial);
      } else {
        stillPartial.push(parent);
      }
    });
    partial = stillPartial;
    break;
  }

  return closeSmallestGaps(rangesOf([...inside, ...partial], targetLevel), maxRanges);
}

/**
 * The one trixel at `level` that holds the whole cap of `radiusDeg` around (RA, Dec), or undefined when
 * the cap reaches over one of its edges: then htmCircleCover at that level is that trixel alone. The
 * test is the cap centre's angular distance to the trixel's three edge great circles (with the cover's
 * margin), much cheaper than the cover's walk down from the root trixels; sky locks ask it for every
 * alert and need the full cover only for the few near an edge.
 */
export function htmTrixelHoldingCap(raDeg: number, decDeg: number, radiusDeg: number, level: number): number | undefined {
  validateCoverArguments(raDeg, decDeg, radiusDeg, level, 1);
  const center = radecToUnitVector(raDeg, decDeg);
  const { id, triangle } = htmTrixelOfVector(center, level);
  return capInsideTriangle(center, radiusDeg, triangle) ? id : undefined;
}

/**
 * A cover of a small cap as one range of level-`level` ids: those of the deepest trixel, from `level`
 * up to `levelsUp` levels above it, that holds the whole cap (htmTrixelHoldingCap's test); undefined
 * when the cap reaches over an edge of each of them. A superset, as htmCircleCover's ranges are, at
 * the cost of one descent instead of the cover's walk; association asks for a 1" cap around every
 * alert, and a level-14 trixel (about 20" across) holds about two thirds of them.
 */
export function htmSmallCapRange(
  raDeg: number,
  decDeg: number,
  radiusDeg: number,
  level: number = HTM_DEFAULT_LEVEL,
  levelsUp = 2,
): HtmIdRange | undefined {
  validateCoverArguments(raDeg, decDeg, radiusDeg, level, 1);
  const center = radecToUnitVector(raDeg, decDeg);
  const lowest = Math.max(0, level - levelsUp);
  const holder = deepestHolding(center, radiusDeg, htmPathOfVector(center, level, lowest), lowest);
  return holder && rangeOf(holder, level);
}

/**
 * htmCircleCover of a small cap (association's 1"): htmSmallCapRange's one range when a trixel at most
 * `levelsUp` levels above `level` holds the whole cap, else the cover walked down from the deepest
 * trixel that does (on the centre's own path) rather than from the 8 root trixels, since every trixel
 * touching the cap lies inside it. The same superset, for a fraction of the work: the walk's levels
 * above that trixel each held it alone.
 */
export function htmSmallCapCover(raDeg: number, decDeg: number, radiusDeg: number, level = HTM_DEFAULT_LEVEL, levelsUp = 2): HtmIdRange[] {
  validateCoverArguments(raDeg, decDeg, radiusDeg, level, 1);
  const center = radecToUnitVector(raDeg, decDeg);
  // The few deepest levels first (htmSmallCapRange's), which hold most caps: the path's trixels from
  // the root, with their corners, are made only for the others.
  const lowest = Math.max(0, level - levelsUp);
  const holder =
    deepestHolding(center, radiusDeg, htmPathOfVector(center, level, lowest), lowest) ??
    (lowest > 0 ? deepestHolding(center, radiusDeg, htmPathOfVector(center, lowest - 1, 0), 0) : undefined);
  if (!holder) return htmCircleCover(raDeg, decDeg, radiusDeg, { level });
  if (holder.level >= level - levelsUp) return [rangeOf(holder, level)];
  return walkCover([holder], center, radiusDeg, level, HTM_COVER_DEFAULT_MAX_RANGES);
}

/** The deepest trixel of a path (htmPathOfVector's, from level `lowest`) that holds the whole cap, if any. */
function deepestHolding(
  center: Vec3,
  radiusDeg: number,
  path: Array<{ id: number; triangle: Triangle }>,
  lowest: number,
): Trixel | undefined {
  for (let k = path.length - 1; k >= 0; k--)
    if (capInsideTriangle(center, radiusDeg, path[k].triangle)) return { ...path[k], level: lowest + k };
  return undefined;
}

/** Whether the cap lies inside the triangle: its centre at least the radius (plus margin) inside each edge. */
function capInsideTriangle(center: Vec3, radiusDeg: number, [a, b, c]: Triangle): boolean {
  // sin of the smallest distance every edge must keep; a cap of 90 deg or more fits in no trixel.
  const least = Math.sin(Math.min(radiusDeg * RAD_PER_DEG + RADIUS_MARGIN_RAD, Math.PI / 2));
  return (
    dot(normalize(cross(a, b)), center) >= least &&
    dot(normalize(cross(b, c)), center) >= least &&
    dot(normalize(cross(c, a)), center) >= least
  );
}
