import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { type AlertPacket, decodeAvroFile } from '@antares/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SHARED_DATA, startTestServer, type TestServer } from '../../testing/test-server.ts';

// GET /v1/alerts/{id}/cutouts/{type}.fits over real ZTF (gzipped FITS) and Rubin (plain FITS) packets:
// the bytes served must be the packet's own cutout (unzipped), whatever the survey.
const ZTF_FILE = 'ztf-avro-alert/samples/1660293514215020000_v3.5_ZTF18abstqbv.avro';
const RUBIN_FILE = 'fink-broker/rubin_v9.0_fink_subset/169298432623116306_169298432623116306.avro';

let server: TestServer;
const packets: AlertPacket[] = [];

beforeAll(async () => {
  server = await startTestServer({ ingest: [ZTF_FILE, RUBIN_FILE] });
  for (const file of [ZTF_FILE, RUBIN_FILE]) {
    for await (const record of decodeAvroFile(path.join(SHARED_DATA, file))) if ('packet' in record) packets.push(record.packet);
  }
});
afterAll(async () => server?.close());

const alertIdOf = (packet: AlertPacket) => (packet.survey === 'ztf' ? `ztf_candidate:${packet.candid}` : `lsst:${packet.diaSourceId}`);
const unzip = (bytes: Uint8Array) => (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : Buffer.from(bytes));

describe('GET /v1/alerts/{id}/cutouts/{type}.fits', () => {
  it("serves each survey's original cutouts as FITS attachments", async () => {
    expect(packets.map((p) => p.survey).sort()).toEqual(['lsst', 'ztf']);
    for (const packet of packets) {
      for (const type of ['science', 'template', 'difference'] as const) {
        const original = packet.cutouts[type];
        expect(original, `${packet.survey} ${type}`).toBeDefined();
        const response = await fetch(`${server.url}/v1/alerts/${encodeURIComponent(alertIdOf(packet))}/cutouts/${type}.fits`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('application/fits');
        expect(response.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="[A-Za-z0-9_.-]+_${type}\\.fits"$`));
        const body = Buffer.from(await response.arrayBuffer());
        expect(body.subarray(0, 9).toString('latin1')).toBe('SIMPLE  =');
        expect(body.equals(unzip(original!))).toBe(true);
      }
    }
  });

  it('answers 404 as JSON:API for an unknown alert, type or file name', async () => {
    const alertId = encodeURIComponent(alertIdOf(packets[0]));
    for (const target of [
      '/v1/alerts/ztf_candidate:1/cutouts/science.fits',
      `/v1/alerts/${alertId}/cutouts/sky.fits`,
      `/v1/alerts/${alertId}/cutouts/science.png`,
      `/v1/alerts/${alertId}/cutouts/science`,
    ]) {
      const { status, body } = await server.getJson(target);
      expect(status, target).toBe(404);
      expect(body.errors[0].status).toBe('404');
    }
  });
});

// ANTARES_CUTOUT_DIR (ADR 0051): the same packets ingested with the cutouts in pack files outside the
// database; the API serves the same bytes, and says so when a pack cannot be read.
describe('cutouts kept in packs under ANTARES_CUTOUT_DIR', () => {
  let packed: TestServer;
  let cutoutDir: string;

  beforeAll(async () => {
    cutoutDir = mkdtempSync(path.join(os.tmpdir(), 'antares-cutout-packs-'));
    packed = await startTestServer({ ingest: [ZTF_FILE, RUBIN_FILE], config: { cutoutDir } });
  });
  afterAll(async () => {
    await packed?.close();
    rmSync(cutoutDir, { recursive: true, force: true });
  });

  it("stores no cutout bytes in the database and serves the packets' own cutouts and thumbnails", async () => {
    const rows = await packed.repos.db.selectFrom('alert_thumbnail').select(['filename', 'cutout', 'pack']).execute();
    expect(rows).toHaveLength(6);
    for (const row of rows) expect([row.cutout, typeof row.pack]).toEqual([null, 'string']);
    expect(readdirSync(cutoutDir, { recursive: true }).filter((f) => String(f).endsWith('.cutouts')).length).toBeGreaterThan(0);
    for (const packet of packets) {
      for (const type of ['science', 'template', 'difference'] as const) {
        const response = await fetch(`${packed.url}/v1/alerts/${encodeURIComponent(alertIdOf(packet))}/cutouts/${type}.fits`);
        expect(response.status, `${packet.survey} ${type}`).toBe(200);
        expect(Buffer.from(await response.arrayBuffer()).equals(unzip(packet.cutouts[type]!))).toBe(true);
      }
    }
    const png = await fetch(`${packed.url}/v1/thumbnails/${encodeURIComponent(rows[0]!.filename)}`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
  });

  it('answers 404 as JSON:API, saying why, when the packs are gone', async () => {
    rmSync(cutoutDir, { recursive: true, force: true });
    const alertId = encodeURIComponent(alertIdOf(packets[1]!));
    const fits = await packed.getJson(`/v1/alerts/${alertId}/cutouts/difference.fits`);
    expect(fits.status).toBe(404);
    expect(fits.body.errors[0].detail).toMatch(
      /^The difference cutout of .+ is not available: its cutout pack ".+\.cutouts" cannot be opened \(ENOENT\)$/,
    );
    const [unrendered] = await packed.repos.db
      .selectFrom('alert_thumbnail')
      .select('filename')
      .where('png', 'is', null)
      .where('alert_id', '=', alertIdOf(packets[1]!))
      .execute();
    const thumbnail = await packed.getJson(`/v1/thumbnails/${encodeURIComponent(unrendered!.filename)}`);
    expect(thumbnail.status).toBe(404);
    expect(thumbnail.body.errors[0].detail).toMatch(/is not available: its cutout pack/);
    // The finder chart is still drawn, without its cutout.
    const [locus] = await packed.repos.db.selectFrom('alert').select('locus_id').where('alert_id', '=', alertIdOf(packets[1]!)).execute();
    const chart = await fetch(`${packed.url}/v1/loci/${locus!.locus_id}/finder-charts`, { method: 'POST' });
    expect(chart.status).toBe(200);
    expect(chart.headers.get('content-type')).toBe('application/pdf');
  });
});
