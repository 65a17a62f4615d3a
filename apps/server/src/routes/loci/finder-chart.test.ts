import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';

import { importCatalog } from '@antares/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// The finder chart's field: catalog objects around a real ingested ZTF locus, drawn and named.
let server: TestServer;
let locus: { locus_id: string; ra: number; dec: number };
const tmp = mkdtempSync(path.join(os.tmpdir(), 'antares-finder-chart-'));

/** The text a PDF shows: every Flate stream inflated, the hex strings of each TJ/Tj operator joined. */
function shownText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const out: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const op of content.matchAll(/\[([^\]]*)\]\s*TJ|<([0-9A-Fa-f]*)>\s*Tj/g)) {
      const hex = op[1] !== undefined ? [...op[1].matchAll(/<([0-9A-Fa-f]*)>/g)].map((h) => h[1]).join('') : op[2];
      out.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return out.join('\n');
}

beforeAll(async () => {
  server = await startTestServer({ ingest: ['ztf-avro-alert/samples'] });
  [locus] = await server.repos.catalogs.lociPage('', 1);
  const arcsec = 1 / 3600;
  const cosDec = Math.cos((locus.dec * Math.PI) / 180);
  const stars = path.join(tmp, 'stars.csv');
  // Two stars inside the 4' field (50" north, 60" east), one 10' away (outside it).
  writeFileSync(
    stars,
    `id,name,ra,dec\nA,fieldstarnorth,${locus.ra},${locus.dec + 50 * arcsec}\nB,fieldstareast,${locus.ra + (60 * arcsec) / cosDec},${locus.dec}\nC,faroutsidestar,${locus.ra},${locus.dec + 600 * arcsec}\n`,
  );
  await importCatalog(server.repos, stars, { name: 'finder_stars', format: 'csv', nameCol: 'name' });
  const galaxies = path.join(tmp, 'galaxies.csv');
  writeFileSync(galaxies, `id,name,ra,dec,size\nG1,fieldgalaxy,${locus.ra},${locus.dec - 40 * arcsec},0.5\n`);
  await importCatalog(server.repos, galaxies, {
    name: 'finder_galaxies',
    format: 'csv',
    nameCol: 'name',
    diameterCol: 'size',
    radiusUnit: 'arcmin',
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('POST /v1/loci/{id}/finder-charts', () => {
  it('draws the field: the cutout, the catalog objects in it by catalog, coordinates and date', async () => {
    const response = await fetch(`${server.url}/v1/loci/${locus.locus_id}/finder-charts`, {
      method: 'POST',
      headers: { accept: 'application/pdf' },
    });
    expect(response.status).toBe(200);
    const pdf = Buffer.from(await response.arrayBuffer());
    const text = shownText(pdf);
    expect(text).toContain(`ANTARES finder chart: ${locus.locus_id}`);
    expect(text).toMatch(/ICRS: \d\d:\d\d:\d\d\.\d\d [+-]\d\d:\d\d:\d\d\.\d\d/);
    expect(text).toMatch(/Chart made \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    for (const name of ['fieldstarnorth', 'fieldstareast', 'fieldgalaxy']) expect(text).toContain(name);
    expect(text).not.toContain('faroutsidestar');
    expect(text).toContain('Grey: catalog objects (3;');
    expect(text).toMatch(/finder_stars: fieldstar(north|east), fieldstar(north|east)/);
    expect(text).toContain('finder_galaxies: fieldgalaxy');
    expect(text).toContain('N');
    expect(pdf.toString('latin1')).toMatch(/\/Subtype \/Image/);
  });
});
