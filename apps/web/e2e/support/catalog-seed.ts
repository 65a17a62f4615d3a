import { angularSeparationDeg } from '@antares/astro';

/**
 * The two small catalogs the e2e database is seeded with, placed around loci the simulated survey
 * produced, and what they must match (worked out here by brute force over every locus, independently
 * of the server's HTM cover), saved as a manifest the catalog tests read.
 *
 * - `e2e_stars` (point sources, matched within 1"): 12 stars from 0.06" to 0.83" around one locus
 *   (the crowded locus: more matches than the default page of 10), one star 0.3" from two other
 *   loci each, and one star 5" from a fourth (matches nothing).
 * - `e2e_galaxies` (extended, `--diameter-col` in arcmin): a 0.5' galaxy 12" from the crowded locus
 *   and a 2' galaxy 40" from another locus.
 */
export const STAR_CATALOG = 'e2e_stars';
export const GALAXY_CATALOG = 'e2e_galaxies';
export const MANIFEST_FILE = 'e2e-catalogs.json';

const ARCSEC = 1 / 3600;
/** Point sources match within this many arcseconds (the pipeline's rule). */
export const POINT_RADIUS_ARCSEC = 1;
/** Loci used for the catalogs have no other locus this close (degrees): nothing else can match by accident. */
const ISOLATION_DEG = 10 / 60;
/** M31: the simulator puts novae there (for every seed), so loci there are not isolated in later runs. */
const M31 = { ra: 10.6847, dec: 41.269, avoidDeg: 3 };

export interface SeedLocus {
  locus_id: string;
  ra: number;
  dec: number;
}

export interface CatalogObject {
  id: string;
  name: string;
  ra: number;
  dec: number;
  /** Extended sources only: the major axis in arcminutes. */
  major_axis_arcmin?: number;
  extra: Record<string, string | number>;
}

export interface ExpectedMatch {
  catalog: string;
  objectId: string;
  objectName: string;
  /** arcsec */
  separation: number;
  /** arcsec, null for point sources */
  radius: number | null;
}

export interface CatalogManifest {
  stars: { name: string; rows: number; loci: string[] };
  galaxies: { name: string; rows: number; loci: string[] };
  /** The locus with the most matches, nearest first. */
  crowded: { locusId: string; matches: ExpectedMatch[] };
  /** A locus near which no catalog object lies. */
  unmatched: { locusId: string };
}

/** A position `arcsec` away from (ra, dec) at position angle `paDeg` (east of north). */
function offset(ra: number, dec: number, arcsec: number, paDeg: number): { ra: number; dec: number } {
  const d = arcsec * ARCSEC;
  const pa = (paDeg * Math.PI) / 180;
  const nextDec = dec + d * Math.cos(pa);
  const nextRa = (ra + (d * Math.sin(pa)) / Math.cos((dec * Math.PI) / 180) + 360) % 360;
  return { ra: nextRa, dec: nextDec };
}

function radiusArcsec(object: CatalogObject): number | null {
  return object.major_axis_arcmin === undefined ? null : (object.major_axis_arcmin * 60) / 2;
}

/** Loci far from every other locus (and from M31), in a stable order (by position). */
function isolatedLoci(loci: SeedLocus[]): SeedLocus[] {
  const sorted = [...loci].sort((a, b) => a.ra - b.ra || a.dec - b.dec || a.locus_id.localeCompare(b.locus_id));
  return sorted.filter(
    (locus) =>
      Math.abs(locus.dec) < 80 &&
      angularSeparationDeg(locus.ra, locus.dec, M31.ra, M31.dec) > M31.avoidDeg &&
      loci.every((other) => other === locus || angularSeparationDeg(locus.ra, locus.dec, other.ra, other.dec) > ISOLATION_DEG),
  );
}

/** The catalogs for a set of loci, and the matches they must give. */
export function planCatalogs(loci: SeedLocus[]): { stars: CatalogObject[]; galaxies: CatalogObject[]; manifest: CatalogManifest } {
  const chosen = isolatedLoci(loci);
  if (chosen.length < 6) throw new Error(`the seeded survey has only ${chosen.length} isolated loci; the catalog seed needs 6`);
  const [crowded, single1, single2, galaxyHost, farHost, unmatched] = chosen;

  const stars: CatalogObject[] = [];
  const star = (id: string, name: string, host: SeedLocus, arcsec: number, pa: number, vmag: number) =>
    stars.push({ id, name, ...offset(host.ra, host.dec, arcsec, pa), extra: { vmag } });
  for (let k = 0; k < 12; k++) {
    const n = String(k + 1).padStart(2, '0');
    star(`S${n}`, `E2E Star ${n}`, crowded, 0.06 + 0.07 * k, (k * 137) % 360, 12 + k / 10);
  }
  star('S13', 'E2E Star 13', single1, 0.3, 45, 14.1);
  star('S14', 'E2E Star 14', single2, 0.3, 200, 14.2);
  star('S15', 'E2E Star 15', farHost, 5, 90, 14.3);

  const galaxies: CatalogObject[] = [
    { id: 'G1', name: 'E2E Galaxy 1', ...offset(crowded.ra, crowded.dec, 12, 300), major_axis_arcmin: 0.5, extra: { morphology: 'E2' } },
    {
      id: 'G2',
      name: 'E2E Galaxy 2',
      ...offset(galaxyHost.ra, galaxyHost.dec, 40, 120),
      major_axis_arcmin: 2,
      extra: { morphology: 'Sb' },
    },
  ];

  // What matches what, by brute force over every locus.
  const matchesOf = (catalog: string, objects: CatalogObject[]) =>
    loci.flatMap((locus) =>
      objects
        .map((object) => {
          const separation = angularSeparationDeg(locus.ra, locus.dec, object.ra, object.dec) * 3600;
          const radius = radiusArcsec(object);
          return { locusId: locus.locus_id, catalog, objectId: object.id, objectName: object.name, separation, radius };
        })
        .filter((m) => m.separation <= (m.radius ?? POINT_RADIUS_ARCSEC)),
    );
  const starMatches = matchesOf(STAR_CATALOG, stars);
  const galaxyMatches = matchesOf(GALAXY_CATALOG, galaxies);
  const all = [...starMatches, ...galaxyMatches];
  const lociOf = (matches: { locusId: string }[]) => [...new Set(matches.map((m) => m.locusId))].sort();
  const crowdedMatches = all
    .filter((m) => m.locusId === crowded.locus_id)
    .sort((a, b) => a.separation - b.separation)
    .map(({ catalog, objectId, objectName, separation, radius }) => ({ catalog, objectId, objectName, separation, radius }));
  if (all.some((m) => m.locusId === unmatched.locus_id)) throw new Error('the unmatched locus has a match');

  return {
    stars,
    galaxies,
    manifest: {
      stars: { name: STAR_CATALOG, rows: stars.length, loci: lociOf(starMatches) },
      galaxies: { name: GALAXY_CATALOG, rows: galaxies.length, loci: lociOf(galaxyMatches) },
      crowded: { locusId: crowded.locus_id, matches: crowdedMatches },
      unmatched: { locusId: unmatched.locus_id },
    },
  };
}

/** A catalog as CSV (numbers written in full: what the server reads is what was planned). */
export function catalogCsv(objects: CatalogObject[]): string {
  const extraColumns = [...new Set(objects.flatMap((o) => Object.keys(o.extra)))];
  const sized = objects.some((o) => o.major_axis_arcmin !== undefined);
  const header = ['id', 'name', 'ra', 'dec', ...(sized ? ['major_axis_arcmin'] : []), ...extraColumns];
  const lines = objects.map((o) =>
    [
      o.id,
      o.name,
      String(o.ra),
      String(o.dec),
      ...(sized ? [String(o.major_axis_arcmin ?? '')] : []),
      ...extraColumns.map((c) => String(o.extra[c] ?? '')),
    ].join(','),
  );
  return `${header.join(',')}\n${lines.join('\n')}\n`;
}
