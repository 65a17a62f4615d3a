import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { angularSeparationDeg } from '@antares/astro';
import { randomGenerator } from '@antares/astro/test-random';
import { createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { expandInputs, ingestFiles } from '../ingest/ingest-files.ts';
import { simulateSurvey } from '../simulate/index.ts';
import { decodeAvroFile } from '../sources/alert-avro.ts';
import { matchPositions } from './crossmatch.ts';
import { importCatalog, removeCatalog } from './import-catalog.ts';

// Catalog import and cross-matching with the real catalogs of ../shared/data.
const CATALOGS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data/catalogs');
const SKYPORTAL = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data/skyportal/catalogs');
// The FITS test writes its table with Debian's astropy.
const hasAstropy = spawnSync('/usr/bin/python3', ['-c', 'import astropy'], { timeout: 60_000 }).status === 0;
if (!hasAstropy) {
  const message = "the FITS catalog test needs Debian's astropy: apt-get install -y python3-astropy";
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}
let database: TestDatabase;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'antares-catalogs-'));
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const file = (name: string, text: string) => {
  const p = path.join(tmp, name);
  writeFileSync(p, text);
  return p;
};

/** Every (position, object) pair within the object's radius, by checking all objects. */
async function bruteForce(positions: Array<{ id: string; ra: number; dec: number }>): Promise<string[]> {
  const objects = await database.db.selectFrom('catalog_object').select(['object_id', 'ra', 'dec', 'radius']).execute();
  const pairs: string[] = [];
  for (const p of positions)
    for (const o of objects) if (angularSeparationDeg(p.ra, p.dec, o.ra, o.dec) <= o.radius) pairs.push(`${p.id}:${o.object_id}`);
  return pairs.sort();
}

describe('catalogs', () => {
  it('imports the real catalogs: OpenNGC (extended, axes), Yale BSC (RA in hours), supernovae and Fermi 4FGL', async () => {
    const { repos } = database;
    const ngc = await importCatalog(repos, path.join(CATALOGS, 'kstars-data/OpenNGC_v20210306_from_kstars.csv'), {
      name: 'openngc',
      format: 'csv',
      raCol: 'ra_deg',
      decCol: 'dec_deg',
      idCol: 'name',
      nameCol: 'name',
      diameterCol: 'major_axis_arcmin',
      radiusUnit: 'arcmin',
    });
    expect(ngc.catalog).toMatchObject({ name: 'openngc', kind: 'extended', row_count: 13960 });
    const bsc = await importCatalog(repos, path.join(CATALOGS, 'xplanet-bsc/BSC.txt'), {
      name: 'yale_bsc',
      format: 'txt',
      columns: ['dec', 'ra', 'vmag', 'name', 'hr', 'hd', 'sao'],
      raHours: true,
      idCol: 'hr',
      nameCol: 'name',
    });
    expect(bsc.catalog).toMatchObject({ kind: 'point', row_count: 9096 });
    // Sirius: HR 2491 at RA 6h45m09s (101.2875 deg), Dec -16.716.
    const sirius = await database.db.selectFrom('catalog_object').selectAll().where('object_key', '=', '2491').executeTakeFirstOrThrow();
    expect(sirius.ra).toBeCloseTo(101.2875, 3);
    expect(sirius.dec).toBeCloseTo(-16.7161, 4);
    expect(sirius.object_name).toBe('9Alp CMa');
    // 390 supernovae of the file have no position: skipped and counted.
    const sne = await importCatalog(repos, path.join(CATALOGS, 'kstars-data/supernovae_OSC_subset.csv'), {
      name: 'supernovae',
      format: 'csv',
      raCol: 'ra_deg',
      decCol: 'dec_deg',
      idCol: 'name',
    });
    expect([sne.catalog.row_count, sne.skipped]).toEqual([2334 - 390, 390]);
    await importCatalog(repos, path.join(SKYPORTAL, 'gll_psc_v27_4FGL.csv'), {
      name: 'fermi_4fgl',
      format: 'csv',
      idCol: 'name',
      radiusCol: 'amaj',
      radiusUnit: 'deg',
    });
    expect((await repos.catalogs.list()).map((c) => [c.name, c.kind])).toEqual([
      ['fermi_4fgl', 'extended'],
      ['openngc', 'extended'],
      ['supernovae', 'point'],
      ['yale_bsc', 'point'],
    ]);

    // M31 (NGC 224, 190' major axis) holds a position 1 degree from its centre along RA.
    const [m31] = await matchPositions(repos, [{ id: 'near-m31', ra: 10.6847 + 1 / Math.cos((41.269 * Math.PI) / 180), dec: 41.269 }]).then(
      (m) => m.filter((x) => x.catalog_name === 'openngc'),
    );
    expect(m31).toBeDefined();
    expect(m31.separation).toBeCloseTo(1, 2);
  }, 120_000);

  it('matches exactly what a brute-force check finds, near the poles and across RA 0/360 too', async () => {
    const random = randomGenerator(31);
    const objects = await database.db.selectFrom('catalog_object').select(['ra', 'dec', 'radius']).execute();
    const positions: Array<{ id: string; ra: number; dec: number }> = [];
    // Near real objects (inside and just outside their circles), anywhere, near the poles, across RA 0.
    for (let i = 0; i < 400; i++) {
      const o = objects[Math.floor(random() * objects.length)];
      const offset = o.radius * (0.5 + random());
      const dec = Math.max(-90, Math.min(90, o.dec + offset * (random() - 0.5) * 2));
      positions.push({
        id: `near${i}`,
        ra: (o.ra + (offset / Math.max(0.01, Math.cos((o.dec * Math.PI) / 180))) * (random() - 0.5) + 360) % 360,
        dec,
      });
    }
    for (let i = 0; i < 200; i++) positions.push({ id: `any${i}`, ra: 360 * random(), dec: (Math.asin(2 * random() - 1) * 180) / Math.PI });
    for (let i = 0; i < 100; i++) positions.push({ id: `pole${i}`, ra: 360 * random(), dec: (i % 2 ? 1 : -1) * (89 + random()) });
    for (let i = 0; i < 100; i++) positions.push({ id: `wrap${i}`, ra: (359.5 + random()) % 360, dec: 180 * random() - 90 });
    const found = (await matchPositions(database.repos, positions)).map((m) => `${m.id}:${m.object_id}`).sort();
    expect(found.length).toBeGreaterThan(50);
    expect(found).toEqual(await bruteForce(positions));
  }, 120_000);

  it.skipIf(!hasAstropy)('imports a FITS binary table (written by astropy), and refuses a FITS file without one', async () => {
    const fits = path.join(tmp, 'table.fits');
    const script = `from astropy.table import Table\nt = Table({'NAME': ['alpha', 'beta'], 'RA': [359.9999, 0.5], 'DEC': [-89.5, 12.25], 'MAG': [11.5, 12.0]})\nt.write('${fits}', format='fits', overwrite=True)\n`;
    const python = spawnSync('/usr/bin/python3', ['-c', script], { encoding: 'utf8' });
    expect(python.status, python.stderr).toBe(0);
    const imported = await importCatalog(database.repos, fits, {
      name: 'fits_stars',
      format: 'fits',
      idCol: 'NAME',
      raCol: 'RA',
      decCol: 'DEC',
    });
    expect(imported.catalog.row_count).toBe(2);
    const rows = await database.db
      .selectFrom('catalog_object')
      .select(['object_key', 'ra', 'dec', 'properties'])
      .where('catalog_id', '=', imported.catalog.catalog_id)
      .orderBy('object_key')
      .execute();
    expect(rows.map((r) => [r.object_key, r.ra, r.dec, (r.properties as { MAG: number }).MAG])).toEqual([
      ['alpha', 359.9999, -89.5, 11.5],
      ['beta', 0.5, 12.25, 12],
    ]);
    await expect(importCatalog(database.repos, file('not.fits', 'SIMPLE  = T'), { name: 'fits_bad', format: 'fits' })).rejects.toThrow(
      /not a readable FITS table/,
    );
  });

  it('rejects malformed files with the line number and imports nothing', async () => {
    const { repos } = database;
    const before = await repos.catalogs.list();
    const cases: Array<[string, string, RegExp]> = [
      ['missing.csv', 'name,ra\nA,10\n', /line 2: declination column "dec" is missing or empty/],
      ['text.csv', 'name,ra,dec\nA,10,20\nB,ten,20\n', /line 3: right ascension "ten" is not a number/],
      ['range.csv', 'name,ra,dec\nA,10,20\n\nB,10,95\n', /line 4: declination 95 is outside -90..90 degrees/],
      ['half.csv', 'name,ra,dec\nA,10,20\nB,,20\n', /line 3: right ascension column "ra" is missing or empty/],
      ['ra.csv', 'name,ra,dec\nA,400,20\n', /line 2: right ascension 400 is outside 0..360 degrees/],
      ['fields.csv', 'name,ra,dec\nA,10\n', /line 2: Too few fields/],
      ['garbage.json', '{not json', /not valid JSON/],
      ['empty.csv', 'name,ra,dec\n', /no rows/],
    ];
    for (const [name, text, message] of cases) {
      await expect(
        importCatalog(repos, file(name, text), { name: 'openngc', format: name.endsWith('.json') ? 'json' : 'csv' }),
      ).rejects.toThrow(message);
    }
    // The failed re-imports of "openngc" left the real one whole.
    expect(await repos.catalogs.list()).toEqual(before);
  });

  it('matches loci at ingestion, re-matches them when a catalog is replaced or removed', async () => {
    const { repos } = database;
    const survey = mkdtempSync(path.join(tmp, 'survey-'));
    await simulateSurvey({ objects: 30, nights: 3, seed: 8, outDir: survey, processes: 1 });
    await ingestFiles(repos, expandInputs([survey]));
    const loci = await repos.catalogs.lociPage('', 1000);
    const [a, b] = loci;
    // A catalog made to sit on two loci: imported after them, so the import re-matches every locus.
    await importCatalog(repos, file('made.csv', `id,ra,dec\nA,${a.ra},${a.dec + 0.5 / 3600}\nB,${b.ra},${b.dec}\n`), {
      name: 'made',
      format: 'csv',
    });
    const matched = await repos.catalogs.lociMatchedIn('made');
    expect(matched.sort()).toEqual([a.locus_id, b.locus_id].sort());
    const page = await repos.catalogs.matchesOfLocus(a.locus_id, { descending: false, limit: 10, offset: 0 });
    expect(page.rows.find((m) => m.catalog_name === 'made')?.separation).toBeCloseTo(0.5 / 3600, 7);

    // Replaced by one without B: only A matches; removed: none, and `catalogs` forgets it.
    await importCatalog(repos, file('made2.csv', `id,ra,dec\nA,${a.ra},${a.dec}\n`), { name: 'made', format: 'csv' });
    expect(await repos.catalogs.lociMatchedIn('made')).toEqual([a.locus_id]);
    expect(await removeCatalog(repos, 'made')).toBe(true);
    expect(await repos.catalogs.lociMatchedIn('made')).toEqual([]);
    expect((await repos.loci.findById(a.locus_id))!.catalogs).not.toContain('made');

    // New alerts at a catalogued position are matched as they are ingested.
    const later = mkdtempSync(path.join(tmp, 'survey-'));
    await simulateSurvey({ objects: 10, nights: 2, seed: 9, outDir: later, processes: 1 });
    const [first] = expandInputs([later]);
    let position: { ra: number; dec: number } | undefined;
    for await (const record of decodeAvroFile(first))
      if ('packet' in record && record.packet.survey === 'ztf' && !position)
        position = { ra: record.packet.candidate.ra as number, dec: record.packet.candidate.dec as number };
    await importCatalog(repos, file('made3.csv', `id,ra,dec\nC,${position!.ra},${position!.dec}\n`), {
      name: 'made_before',
      format: 'csv',
    });
    expect(await repos.catalogs.lociMatchedIn('made_before')).toEqual([]);
    await ingestFiles(repos, expandInputs([later]));
    const found = await repos.loci.findMany(await repos.catalogs.lociMatchedIn('made_before'));
    expect(found).toHaveLength(1);
    expect(angularSeparationDeg(found[0].ra, found[0].dec, position!.ra, position!.dec)).toBeLessThanOrEqual(1 / 3600);
  }, 120_000);
});
