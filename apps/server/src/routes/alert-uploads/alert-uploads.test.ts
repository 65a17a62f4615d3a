import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { expandInputs, InboxWatcher } from '@antares/pipeline';
import { confluentRecords } from '@antares/pipeline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HttpSession } from '../../testing/http-session.ts';
import { signedInSession } from '../../testing/signed-in.ts';
import { SHARED_DATA, startTestServer, type TestServer } from '../../testing/test-server.ts';

// Alert files over HTTP: an admin uploads ZTF or Rubin Avro, the running pipeline's inbox ingests it,
// and the upload reports the outcome. Rubin ids above 2^53 come back exact through the API.
let server: TestServer;
let admin: HttpSession;
let user: HttpSession;
let inbox: InboxWatcher;
const AVRO = { 'content-type': 'application/avro' };
const rubinFile = expandInputs([path.join(SHARED_DATA, 'fink-broker/rubin_v9.0_fink_subset')])[0];
const ztfFile = path.join(SHARED_DATA, 'ztf-avro-alert/samples/1661382530015060001_v3.5_ZTF18aaxjdyr.avro');

beforeAll(async () => {
  server = await startTestServer();
  inbox = new InboxWatcher(server.repos, server.config.inboxDir!, { log: () => {} });
  admin = await signedInSession(server, 'up-admin', { admin: true });
  user = await signedInSession(server, 'up-user');
});
afterAll(async () => {
  await inbox?.stop();
  await server?.close();
});

const upload = (session: HttpSession, bytes: Uint8Array) => session.request('POST', '/v1/alert_uploads', { raw: bytes, headers: AVRO });

describe('alert uploads', () => {
  it('takes files from admins only', async () => {
    const bytes = readFileSync(rubinFile);
    expect((await upload(new HttpSession(server.url), bytes)).status).toBe(401);
    expect((await upload(user, bytes)).status).toBe(403);
  });

  it('refuses what is not an alert file, saying why', async () => {
    const notAvro = await upload(admin, Buffer.from('ra,dec\n1,2\n'));
    expect(notAvro.status).toBe(400);
    expect(notAvro.body.errors[0].detail).toMatch(/^The upload cannot be ingested: not an Avro object container file/);
    const atlas = expandInputs([path.join(SHARED_DATA, 'alerce/atlas_samples')])[0];
    const other = await upload(admin, readFileSync(atlas));
    expect(other.status).toBe(400);
    expect(other.body.errors[0].detail).toBe('The upload cannot be ingested: not a ZTF or Rubin alert packet (schema atlas.alert)');
    const empty = await upload(admin, Buffer.alloc(0));
    expect(empty.status).toBe(400);
  });

  it('queues a Rubin file, which the inbox ingests; its status then has the summary', async () => {
    const sent = await upload(admin, readFileSync(rubinFile));
    expect(sent.status).toBe(202);
    expect(sent.body.data).toMatchObject({ type: 'alert_upload', attributes: { status: 'queued' } });
    const id = sent.body.data.id as string;
    expect(sent.headers.get('location')).toBe(`${server.url}/v1/alert_uploads/${id}`);
    expect((await admin.get(`/v1/alert_uploads/${id}`)).body.data.attributes.status).toBe('queued');
    expect(await inbox.scanOnce()).toBe(1);
    const status = await admin.get(`/v1/alert_uploads/${id}`);
    expect(status.body.data.attributes).toMatchObject({
      status: 'ingested',
      error: null,
      summary: { packets_read: 1, packets_stored: 1, alerts_stored: 1, loci_created: 1 },
    });

    // The alert and its locus through the API, ids digit for digit (they exceed 2^53).
    const diaSourceId = path.basename(rubinFile).split('_')[0];
    const alert = await server.getJson(`/v1/alerts/lsst:${diaSourceId}`);
    expect(alert.status).toBe(200);
    expect(alert.body.data.id).toBe(`lsst:${diaSourceId}`);
    expect(alert.body.data.attributes.survey).toBe('lsst');
    expect(alert.body.data.attributes.properties.lsst_diaSource_diaSourceId).toBe(diaSourceId);
    const objectId = alert.body.data.attributes.properties.lsst_diaSource_diaObjectId as string;
    expect(objectId).toMatch(/^\d{17,19}$/);
    // A client sends the id as a bare JSON number, as Python clients do: it must not be rounded.
    const query = `{"query":{"bool":{"filter":{"term":{"properties.survey.lsst.dia_object_id":${objectId}}}}}}`;
    const loci = await server.getJson(`/v1/loci?elasticsearch_query%5Blocus_listing%5D=${encodeURIComponent(query)}`);
    expect(
      loci.body.data.map(
        (l: { attributes: { properties: { survey: { lsst: { dia_object_id: string[] } } } } }) =>
          l.attributes.properties.survey.lsst.dia_object_id,
      ),
    ).toEqual([[objectId]]);
    const thumbnails = await server.getJson(`/v1/alerts/lsst:${diaSourceId}/thumbnails`);
    expect(thumbnails.body.data.map((t: { id: string }) => t.id).sort()).toEqual([
      `diaSource${diaSourceId}_diff.fits.png`,
      `diaSource${diaSourceId}_ref.fits.png`,
      `diaSource${diaSourceId}_sci.fits.png`,
    ]);
    const png = await fetch(thumbnails.body.data[0].attributes.src);
    expect(png.headers.get('content-type')).toBe('image/png');
  });

  it('takes gzipped ZTF files too, and says 404 for an unknown upload', async () => {
    const sent = await upload(admin, gzipSync(readFileSync(ztfFile)));
    expect(sent.status).toBe(202);
    await inbox.scanOnce();
    expect((await admin.get(`/v1/alert_uploads/${sent.body.data.id}`)).body.data.attributes.summary.packets_stored).toBe(1);
    expect((await admin.get('/v1/alert_uploads/20260101000000-000000000000')).status).toBe(404);
    expect((await admin.get('/v1/alert_uploads/../../etc')).status).toBe(404);
  });

  it("takes a Rubin alert framed as Rubin's Kafka stream sends it, and refuses one whose schema it cannot know", async () => {
    // lsst/alert_packet's 10.0 sample, as one Confluent-framed record: schema id 1000 is the shipped 10.0.
    const sample = path.join(SHARED_DATA, 'lsst-alert_packet/schema/10/0/sample_data/fakeAlert.avro');
    const [framed] = await confluentRecords(sample, 1000);
    const sent = await upload(admin, framed);
    expect(sent.status).toBe(202);
    expect(await inbox.scanOnce()).toBe(1);
    const status = await admin.get(`/v1/alert_uploads/${sent.body.data.id}`);
    expect(status.body.data.attributes).toMatchObject({ status: 'ingested', error: null, summary: { packets_read: 1, undecodable: 0 } });

    const [unknown] = await confluentRecords(sample, 701);
    const refused = await upload(admin, gzipSync(unknown));
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].detail).toBe(
      'The upload cannot be ingested: Confluent-framed record (schema id 701): not one of the Rubin alert schemas ANTARES ships ' +
        '(900 = 9.0, 1000 = 10.0, 1100 = 11.0), and no schema registry is configured (ANTARES_SCHEMA_REGISTRY_URL)',
    );
  });
});

describe('alert uploads under caps (lowered here through the configuration)', () => {
  let capped: TestServer;
  let cappedAdmin: HttpSession;
  const MAX_UNCOMPRESSED = 1 << 20;
  const MAX_BODY = 256 << 10;
  beforeAll(async () => {
    capped = await startTestServer({ config: { uploadMaxUncompressedBytes: MAX_UNCOMPRESSED, uploadMaxBodyBytes: MAX_BODY } });
    cappedAdmin = await signedInSession(capped, 'cap-admin', { admin: true });
  });
  afterAll(async () => {
    await capped?.close();
  });
  const inboxFiles = () => (existsSync(capped.config.inboxDir!) ? readdirSync(capped.config.inboxDir!) : []);

  it('refuses a gzip bomb with 413 once decompressed past the cap, keeping nothing', async () => {
    // A real alert file's header, then 64 MB of zeros: 65 kB gzipped.
    const bomb = gzipSync(Buffer.concat([readFileSync(ztfFile), Buffer.alloc(64 << 20)]), { level: 9 });
    expect(bomb.length).toBeLessThan(MAX_BODY);
    const response = await cappedAdmin.request('POST', '/v1/alert_uploads', { raw: bomb, headers: AVRO });
    expect(response.status).toBe(413);
    expect(response.body.errors[0]).toMatchObject({
      status: '413',
      detail:
        'The upload is larger than 1 MB once decompressed, the most one file may hold: split it into several, or put it in the inbox folder',
    });
    expect(inboxFiles()).toEqual([]);
    // A gzipped file within the cap is taken as before.
    const fine = await cappedAdmin.request('POST', '/v1/alert_uploads', { raw: gzipSync(readFileSync(ztfFile)), headers: AVRO });
    expect(fine.status).toBe(202);
    expect(inboxFiles()).toEqual([`upload-${fine.body.data.id}.avro.gz`]);
  });

  it('refuses a body past its cap with 413, and a broken gzip stream with 400', async () => {
    const big = Buffer.concat([readFileSync(ztfFile), Buffer.alloc(MAX_BODY)]);
    const response = await cappedAdmin.request('POST', '/v1/alert_uploads', { raw: big, headers: AVRO });
    expect(response.status).toBe(413);
    expect(response.body.errors[0].detail).toBe(
      'The upload is larger than 256 kB, the most one request may carry: split it into several, or put it in the inbox folder',
    );
    const truncated = gzipSync(readFileSync(ztfFile)).subarray(0, 2000);
    const broken = await cappedAdmin.request('POST', '/v1/alert_uploads', { raw: truncated, headers: AVRO });
    expect(broken.status).toBe(400);
    expect(broken.body.errors[0].detail).toMatch(/^The upload cannot be ingested: not a valid gzip file/);
    expect(inboxFiles().filter((name) => name.endsWith('.part'))).toEqual([]);
  });
});
