import { createRequire } from 'node:module';

import type { Repositories } from '@antares/db';
import {
  type AngleUnit,
  type CatalogFormat,
  crossmatchAllLoci,
  importCatalog,
  type ImportProgress,
  readCatalogRows,
  removeCatalog,
  toCatalogObjects,
} from '@antares/pipeline';

import { createProgress } from '../progress.ts';

export interface CatalogImportOptions {
  name: string;
  file: string;
  format: CatalogFormat;
  raCol?: string;
  decCol?: string;
  idCol?: string;
  nameCol?: string;
  raUnit?: 'deg' | 'hours';
  columns?: string;
  radius?: number;
  radiusUnit?: AngleUnit;
  radiusCol?: string;
  diameterCol?: string;
}

export async function runCatalogImport(repos: Repositories, o: CatalogImportOptions): Promise<void> {
  let progress: ReturnType<typeof createProgress> | undefined;
  let phase = '';
  const onProgress = (p: ImportProgress) => {
    if (p.phase !== phase) {
      progress?.stop();
      phase = p.phase;
      progress = createProgress(
        p.phase === 'store' ? 'store' : p.phase === 'match' ? 're-match loci' : 'read',
        p.total,
        p.phase === 'match' ? 'loci' : 'rows',
      );
    }
    progress!.update(p.done, '', p.total);
  };
  const { catalog, lociMatched, skipped } = await importCatalog(
    repos,
    o.file,
    {
      name: o.name,
      format: o.format,
      raCol: o.raCol,
      decCol: o.decCol,
      idCol: o.idCol,
      nameCol: o.nameCol,
      raHours: o.raUnit === 'hours',
      columns: o.columns
        ?.split(',')
        .map((c) => c.trim())
        .filter(Boolean),
      radius: o.radius,
      radiusUnit: o.radiusUnit,
      radiusCol: o.radiusCol,
      diameterCol: o.diameterCol,
    },
    onProgress,
  );
  progress?.stop();
  console.log(
    `catalog ${catalog.name}: ${catalog.row_count} ${catalog.kind} sources imported` +
      `${skipped ? ` (${skipped} rows without a position skipped)` : ''}; ${lociMatched} loci match it`,
  );
}

export async function runCatalogList(repos: Repositories): Promise<void> {
  const catalogs = await repos.catalogs.list();
  if (catalogs.length === 0) console.log('no catalogs');
  for (const c of catalogs)
    console.log(
      `${c.name.padEnd(24)} ${c.kind.padEnd(8)} ${String(c.row_count).padStart(9)} rows  imported ${c.imported_at.toISOString()}  from ${c.source}`,
    );
}

export async function runCatalogRemove(repos: Repositories, name: string): Promise<void> {
  if (!(await removeCatalog(repos, name))) throw new Error(`no catalog named "${name}"`);
  console.log(`catalog ${name} removed`);
}

/**
 * The catalogs every installation starts with, from the d3-celestial npm package: Hipparcos stars to
 * magnitude 8 (point sources) and deep-sky objects to magnitude 14 (extended, with their sizes). Loaded
 * once, when the database has no catalog yet.
 */
export async function ensureBuiltinCatalogs(repos: Repositories): Promise<void> {
  if ((await repos.catalogs.list()).length > 0) return;
  const require = createRequire(import.meta.url);
  const data = (file: string) => require.resolve(`d3-celestial/data/${file}`);
  console.log('Loading the built-in catalogs (Hipparcos stars, deep-sky objects) ...');
  const stars = toCatalogObjects(readCatalogRows(data('stars.8.json'), 'json'), { idCol: 'id' }).objects;
  await repos.catalogs.replace({ name: 'hipparcos', kind: 'point', source: 'd3-celestial stars.8.json (Hipparcos, V <= 8)' }, stars);
  // "dim" is "major x minor" in arcminutes; the match circle is the major axis.
  // Two entries of the file have impossible declinations (a data error upstream): left out.
  const dsoRows = readCatalogRows(data('dsos.14.json'), 'json')
    .filter((row) => Math.abs(Number(row.values.dec)) <= 90)
    .map((row) => ({
      ...row,
      values: { ...row.values, major_axis_arcmin: Number.parseFloat(String(row.values.dim ?? '')) || null },
    }));
  const dsos = toCatalogObjects(dsoRows, {
    idCol: 'desig',
    nameCol: 'desig',
    diameterCol: 'major_axis_arcmin',
    radiusUnit: 'arcmin',
  }).objects;
  await repos.catalogs.replace({ name: 'deep_sky_objects', kind: 'extended', source: 'd3-celestial dsos.14.json (V <= 14)' }, dsos);
  if ((await repos.loci.count()) > 0) await crossmatchAllLoci(repos);
  console.log(`Built-in catalogs: ${stars.length} stars, ${dsos.length} deep-sky objects`);
}
