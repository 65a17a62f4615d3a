import { angularSeparationDeg, htmSmallCapCover } from '@antares/astro';

/** An alert joins the nearest locus within 1 arcsecond, else it starts a new one (wire format section 5). */
export const ASSOCIATION_RADIUS_DEG = 1 / 3600;

export interface PositionedLocus {
  locus_id: string;
  ra: number;
  dec: number;
}

export function nearestLocus(ra: number, dec: number, candidates: PositionedLocus[]): PositionedLocus | null {
  let best: PositionedLocus | null = null;
  let bestDistance = Infinity;
  for (const locus of candidates) {
    const distance = angularSeparationDeg(ra, dec, locus.ra, locus.dec);
    if (distance <= ASSOCIATION_RADIUS_DEG && distance < bestDistance) {
      best = locus;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Loci of a batch, bucketed by declination in 1-arcsecond bands: an alert's nearest locus within 1"
 * lies in its own band or a neighbouring one (angular distance is at least the declination difference),
 * so each lookup compares a handful of loci instead of the whole batch.
 */
export class LocusIndex {
  private readonly bands = new Map<number, PositionedLocus[]>();

  constructor(loci: PositionedLocus[] = []) {
    for (const locus of loci) this.add(locus);
  }

  add(locus: PositionedLocus): void {
    const band = Math.floor(locus.dec / ASSOCIATION_RADIUS_DEG);
    const list = this.bands.get(band);
    if (list) list.push(locus);
    else this.bands.set(band, [locus]);
  }

  nearest(ra: number, dec: number): PositionedLocus | null {
    const band = Math.floor(dec / ASSOCIATION_RADIUS_DEG);
    const nearby = [band - 1, band, band + 1].flatMap((b) => this.bands.get(b) ?? []);
    return nearby.length === 0 ? null : nearestLocus(ra, dec, nearby);
  }
}

/**
 * The htm16 id ranges in which association candidates for this position can lie: most often those of the
 * one level-16 to level-14 trixel holding the whole 1" cap (one descent), else the cap's cover walked
 * down from the deepest trixel holding it (from the root trixels, that walk was a tenth of a Rubin
 * batch's time). Candidates are filtered by distance.
 */
export function associationRanges(ra: number, dec: number): Array<[number, number]> {
  return htmSmallCapCover(ra, dec, ASSOCIATION_RADIUS_DEG);
}

const LOCUS_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `ANT<year><12 random characters>`, as ANTARES names loci (e.g. ANT2026b78o35eau2gs). */
export function newLocusId(year: number, random: () => number = Math.random): string {
  let suffix = '';
  for (let i = 0; i < 12; i++) suffix += LOCUS_ID_ALPHABET[Math.floor(random() * LOCUS_ID_ALPHABET.length)];
  return `ANT${year}${suffix}`;
}
