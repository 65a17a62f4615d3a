import { htmCircleCover, htmTrixelHoldingCap } from '@antares/astro';

import { ASSOCIATION_RADIUS_DEG } from '../stages/associate.ts';

/**
 * HTM level of the sky regions ingest workers lock (docs/adr/0035): level 8 trixels are about 0.3 deg
 * across, so a batch of one exposure's alerts (a Rubin visit is ~10 deg2, a ZTF quadrant ~1 deg2)
 * needs tens to a few hundred locks, and workers on other fields do not meet.
 */
export const SKY_LOCK_LEVEL = 8;

/**
 * Radius around each alert whose trixels are locked: twice the association radius. Two alerts that
 * could join one locus are within 2" of each other (both within 1" of it), so each one's cap holds the
 * other's position and both batches lock that position's trixel. The margin also covers a locus whose
 * mean position has moved up to 1" from an alert that joined it.
 */
export const SKY_LOCK_RADIUS_DEG = 2 * ASSOCIATION_RADIUS_DEG;

/** Level-8 trixel ids of every trixel touching the 2" cap around each position, ascending, once each. */
export function skyLockTrixels(positions: Iterable<{ ra: number; dec: number }>): number[] {
  const ids = new Set<number>();
  for (const { ra, dec } of positions) {
    // Most caps lie inside one trixel: the cover, a walk from the root trixels, only near an edge.
    const only = htmTrixelHoldingCap(ra, dec, SKY_LOCK_RADIUS_DEG, SKY_LOCK_LEVEL);
    if (only !== undefined) {
      ids.add(only);
      continue;
    }
    for (const [lo, hi] of htmCircleCover(ra, dec, SKY_LOCK_RADIUS_DEG, { level: SKY_LOCK_LEVEL })) {
      for (let id = lo; id <= hi; id++) ids.add(id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}
