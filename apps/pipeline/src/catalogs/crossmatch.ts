import { angularSeparationDeg, htmId } from '@antares/astro';
import type { Repositories } from '@antares/db';

import { COVER_LEVEL } from './catalog-objects.ts';

export interface PositionMatch {
  id: string;
  object_id: number;
  catalog_name: string;
  /** degrees */
  separation: number;
}

/**
 * Catalog objects whose match circle holds each position: one index query for all the positions (their
 * level-10 trixels), then the exact angular distance.
 */
export async function matchPositions(
  repos: Repositories,
  points: Array<{ id: string; ra: number; dec: number }>,
): Promise<PositionMatch[]> {
  if (points.length === 0) return [];
  const trixels = points.map((p) => htmId(p.ra, p.dec, COVER_LEVEL));
  const byTrixel = new Map<number, Awaited<ReturnType<Repositories['catalogs']['candidates']>>>();
  for (const c of await repos.catalogs.candidates(trixels)) {
    const list = byTrixel.get(c.htm10);
    if (list) list.push(c);
    else byTrixel.set(c.htm10, [c]);
  }
  const matches: PositionMatch[] = [];
  points.forEach((p, i) => {
    for (const c of byTrixel.get(trixels[i]) ?? []) {
      const separation = angularSeparationDeg(p.ra, p.dec, c.ra, c.dec);
      if (separation <= c.radius) matches.push({ id: p.id, object_id: c.object_id, catalog_name: c.catalog_name, separation });
    }
  });
  return matches;
}

/** Re-matches these loci at their current positions (their `catalogs` and stored matches). */
export async function crossmatchLoci(repos: Repositories, locusIds: string[]): Promise<number> {
  if (locusIds.length === 0) return 0;
  const loci = await repos.loci.findManyPositions(locusIds);
  return crossmatchPositions(
    repos,
    loci.map((l) => ({ id: l.locus_id, ra: l.ra, dec: l.dec })),
  );
}

/** Re-matches loci at positions the caller already has (ingestion just computed them). */
export async function crossmatchPositions(repos: Repositories, loci: Array<{ id: string; ra: number; dec: number }>): Promise<number> {
  if (loci.length === 0) return 0;
  const matches = await matchPositions(repos, loci);
  await repos.catalogs.replaceLocusMatches(
    loci.map((l) => l.id),
    matches.map((m) => ({ locus_id: m.id, object_id: m.object_id, separation: m.separation })),
  );
  return matches.length;
}

/** Re-matches every locus, a page at a time (after a catalog is imported or removed). */
export async function crossmatchAllLoci(
  repos: Repositories,
  onProgress?: (loci: number, matches: number) => void,
  pageSize = 5000,
): Promise<{ loci: number; matches: number }> {
  let after = '';
  let loci = 0;
  let matches = 0;
  for (;;) {
    const page = await repos.catalogs.lociPage(after, pageSize);
    if (page.length === 0) break;
    matches += await repos.transaction((tx) =>
      crossmatchPositions(
        tx,
        page.map((l) => ({ id: l.locus_id, ra: l.ra, dec: l.dec })),
      ),
    );
    loci += page.length;
    after = page.at(-1)!.locus_id;
    onProgress?.(loci, matches);
  }
  return { loci, matches };
}
