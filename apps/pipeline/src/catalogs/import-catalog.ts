import type { CatalogRow, Repositories } from '@antares/db';

import { type CatalogColumns, isExtended, toCatalogObjects } from './catalog-objects.ts';
import { crossmatchAllLoci, crossmatchLoci } from './crossmatch.ts';
import { CatalogFileError, type CatalogFormat, readCatalogRows } from './read-rows.ts';

export interface ImportProgress {
  phase: 'read' | 'store' | 'match';
  done: number;
  total: number;
}

export const CATALOG_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * Imports (or re-imports) a catalog file: every row checked first, then stored in one transaction,
 * then every locus re-matched. Returns the catalog and how many loci now match it.
 */
export async function importCatalog(
  repos: Repositories,
  file: string,
  options: CatalogColumns & { name: string; format: CatalogFormat; columns?: string[] },
  onProgress?: (p: ImportProgress) => void,
): Promise<{ catalog: CatalogRow; lociMatched: number; skipped: number }> {
  if (!CATALOG_NAME.test(options.name)) throw new Error(`catalog name "${options.name}": letters, digits, _ . - only (at most 64)`);
  const rows = readCatalogRows(file, options.format, options.columns);
  onProgress?.({ phase: 'read', done: rows.length, total: rows.length });
  const { objects, skipped } = toCatalogObjects(rows, options);
  if (objects.length === 0) throw new CatalogFileError('the file has no rows with a position');
  const catalog = await repos.catalogs.replace(
    { name: options.name, kind: isExtended(options) ? 'extended' : 'point', source: file },
    objects,
    (done, total) => onProgress?.({ phase: 'store', done, total }),
  );
  const total = await repos.loci.count();
  await crossmatchAllLoci(repos, (loci) => onProgress?.({ phase: 'match', done: loci, total }));
  const lociMatched = (await repos.catalogs.lociMatchedIn(options.name)).length;
  return { catalog, lociMatched, skipped };
}

/** Removes a catalog and re-matches the loci that matched it. */
export async function removeCatalog(repos: Repositories, name: string): Promise<boolean> {
  const affected = await repos.catalogs.lociMatchedIn(name);
  const removed = await repos.catalogs.remove(name);
  if (removed && affected.length > 0) {
    for (let i = 0; i < affected.length; i += 5000) await crossmatchLoci(repos, affected.slice(i, i + 5000));
  }
  return removed;
}
