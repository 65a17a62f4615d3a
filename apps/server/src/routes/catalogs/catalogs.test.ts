import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { importCatalog } from '@antares/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// Catalog matches of loci, catalog samples and catalog search over HTTP, on real ingested ZTF loci.
let server: TestServer;
let locus: { locus_id: string; ra: number; dec: number };
const tmp = mkdtempSync(path.join(os.tmpdir(), 'antares-catalog-api-'));

beforeAll(async () => {
  server = await startTestServer({ ingest: ['ztf-avro-alert/samples'] });
  [locus] = await server.repos.catalogs.lociPage('', 1);
  const stars = path.join(tmp, 'stars.csv');
  // Two point sources on the locus (0.3" and 0.8" away), one 5" away (no match), and a galaxy of 1' radius.
  const arcsec = 1 / 3600;
  writeFileSync(
    stars,
    `id,name,ra,dec,mag\nS1,near,${locus.ra},${locus.dec + 0.3 * arcsec},12.5\nS2,nearer-ish,${locus.ra},${locus.dec - 0.8 * arcsec},13\nS3,far,${locus.ra},${locus.dec + 5 * arcsec},14\n`,
  );
  await importCatalog(server.repos, stars, { name: 'test_stars', format: 'csv', nameCol: 'name' });
  const galaxies = path.join(tmp, 'galaxies.csv');
  writeFileSync(galaxies, `id,ra,dec,size\nG1,${locus.ra},${locus.dec + 30 * arcsec},2\n`);
  await importCatalog(server.repos, galaxies, { name: 'test_galaxies', format: 'csv', diameterCol: 'size', radiusUnit: 'arcmin' });
});
afterAll(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('catalog API', () => {
  it('lists a locus catalog matches nearest first, with meta catalog_name, radius and separation in arcsec', async () => {
    const { status, body } = await server.getJson(`/v1/loci/${locus.locus_id}/catalog-matches`);
    expect(status).toBe(200);
    expect(body.meta.count).toBe(3);
    expect(body.data.map((d: { id: string }) => d.id)).toEqual(['test_stars:S1', 'test_stars:S2', 'test_galaxies:G1']);
    const [s1, , g1] = body.data;
    expect(s1).toMatchObject({
      type: 'catalog_entry',
      attributes: { object_id: 'S1', object_name: 'near', properties: { mag: 12.5 } },
      meta: { catalog_name: 'test_stars', radius: null },
    });
    expect(s1.meta.separation).toBeCloseTo(0.3, 3);
    expect(g1.meta.radius).toBeCloseTo(60, 6);
    expect(g1.meta.separation).toBeCloseTo(30, 2);
    const reversed = await server.getJson(`/v1/loci/${locus.locus_id}/catalog-matches?sort=-meta.separation&page%5Blimit%5D=1`);
    expect(reversed.body.data.map((d: { id: string }) => d.id)).toEqual(['test_galaxies:G1']);
    expect(reversed.body.links.next).toContain('page%5Boffset%5D=1');
    expect((await server.getJson(`/v1/loci/${locus.locus_id}/catalog-matches?sort=name`)).status).toBe(400);
    expect((await server.getJson('/v1/loci/ANT_NO_SUCH/catalog-matches')).status).toBe(404);
  });

  it('shows the catalogs on the locus, in its search and in the statistics', async () => {
    const detail = await server.getJson(`/v1/loci/${locus.locus_id}`);
    expect(detail.body.data.attributes.catalogs).toEqual(['test_galaxies', 'test_stars']);
    const query = encodeURIComponent(JSON.stringify({ query: { bool: { filter: { term: { catalogs: 'test_stars' } } } } }));
    const found = await server.getJson(`/v1/loci?elasticsearch_query%5Blocus_listing%5D=${query}`);
    expect(found.body.data.map((d: { id: string }) => d.id)).toEqual([locus.locus_id]);
    const stats = await server.getJson('/v1/loci/statistics');
    expect(stats.body.data.attributes.catalogs).toMatchObject({ test_stars: 1, test_galaxies: 1 });
  });

  it('gives samples of every catalog and searches the catalogs at a position', async () => {
    const samples = await server.getJson('/v1/catalog_samples?n=2');
    expect(
      samples.body.data.map((d: { id: string; attributes: { catalog_name: string } }) => `${d.attributes.catalog_name}:${d.id}`),
    ).toEqual(['test_galaxies:G1', 'test_stars:S1', 'test_stars:S2']);
    expect(samples.body.data[1].attributes).toMatchObject({
      catalog_name: 'test_stars',
      object_id: 'S1',
      data: { name: 'near', mag: 12.5 },
    });
    expect((await server.getJson('/v1/catalog_samples?n=0')).status).toBe(400);
    const search = await server.getJson(`/v1/catalog_search/${locus.ra}/${locus.dec + 5 / 3600}`);
    expect(
      search.body.data.map((d: { id: string; attributes: { catalog_name: string } }) => `${d.attributes.catalog_name}:${d.id}`),
    ).toEqual(['test_galaxies:G1', 'test_stars:S3']);
    expect((await server.getJson('/v1/catalog_search/400/0')).status).toBe(400);
    expect((await server.getJson('/v1/catalog_search/abc/0')).status).toBe(400);
  });
});
