import { readFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HttpSession } from '../../testing/http-session.ts';
import { signedInSession } from '../../testing/signed-in.ts';
import { SHARED_DATA, startTestServer, type TestServer } from '../../testing/test-server.ts';

// Gravitational-wave notices over HTTP: admin upload, the wire format's notice reads, the events page's calls.
let server: TestServer;
let admin: HttpSession;
let user: HttpSession;
const notice = JSON.parse(readFileSync(path.join(SHARED_DATA, 'skyportal/gw/igwn_gwalert_preliminary.json'), 'utf8'));

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedInSession(server, 'gw-admin', { admin: true });
  user = await signedInSession(server, 'gw-user');
});
afterAll(async () => server?.close());

describe('gravitational-wave API', () => {
  it('takes notices from admins only, and refuses malformed ones with 400', async () => {
    expect((await user.post('/v1/grav_wave_notices', notice)).status).toBe(403);
    expect((await new HttpSession(server.url).post('/v1/grav_wave_notices', notice)).status).toBe(401);
    const bad = await admin.post('/v1/grav_wave_notices', { ...notice, alert_type: 'MAYBE' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].detail).toContain('alert_type "MAYBE" is not one of');
    const created = await admin.post('/v1/grav_wave_notices', notice);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      type: 'grav_wave_notice',
      attributes: { gracedb_id: 'MS260605l', notice_type: 'PRELIMINARY', version_id: 1 },
    });
    expect((await admin.post('/v1/grav_wave_notices', notice)).status).toBe(200);
  });

  it('reads notices as the wire format has them: latest, by time, several latest', async () => {
    const latest = await server.getJson('/v1/grav_wave_notices/MS260605l/latest');
    const attributes = latest.body.data.attributes;
    expect(attributes).toMatchObject({
      gracedb_id: 'MS260605l',
      notice_type: 'PRELIMINARY',
      notice_datetime: '2026-06-05T12:01:07.000Z',
      event_datetime: '2026-06-05T11:57:26.395Z',
    });
    expect(attributes.skymap_base64).toBe(notice.event.skymap);
    expect(attributes.full_notice.event.skymap).toBe(notice.event.skymap);
    const byTime = await server.getJson(`/v1/grav_wave_notices/MS260605l/${encodeURIComponent('2026-06-05T12:01:07Z')}`);
    expect(byTime.body.data.id).toBe(latest.body.data.id);
    const several = await server.getJson('/v1/grav_wave_notices/latest?ids=MS260605l,S000000xx');
    expect(several.body.data.map((d: { attributes: { gracedb_id: string } }) => d.attributes.gracedb_id)).toEqual(['MS260605l']);
    expect((await server.getJson('/v1/grav_wave_notices/S000000xx/latest')).status).toBe(404);
    expect((await server.getJson('/v1/grav_wave_notices/MS260605l/not-a-time')).status).toBe(400);
    expect((await server.getJson('/v1/grav_wave_notices/latest')).status).toBe(400);
  });

  it('lists events with their areas and draws the sky map at order 6', async () => {
    const events = await server.getJson('/v1/grav_wave_events');
    expect(events.body.meta.count).toBe(1);
    const event = events.body.data[0].attributes;
    expect(event).toMatchObject({ gracedb_id: 'MS260605l', retracted: false, loci_count: 0 });
    expect(event.area90).toBeCloseTo(7.75, 1);
    const response = await server.getJson('/v1/grav_wave_events/MS260605l/skymap');
    expect(response.headers.get('content-encoding')).toBe('gzip'); // about 5 MB of JSON otherwise
    const map = response.body.data.attributes;
    expect(map.pixels).toHaveLength(49152);
    const inside90 = map.pixels.filter((p: { level: number }) => p.level <= 0.9);
    // About 7.75 deg² at 0.84 deg² per pixel: a handful of pixels, the densest first.
    expect(inside90.length).toBeGreaterThan(0);
    expect(inside90.length).toBeLessThan(40);
    const densest = [...map.pixels].sort(
      (a: { probability_density: number }, b: { probability_density: number }) => b.probability_density - a.probability_density,
    )[0];
    expect(densest.level).toBeLessThan(0.9);
    expect((await server.getJson('/v1/grav_wave_events/MS260605l/loci')).body.meta.count).toBe(0);
    expect((await server.getJson('/v1/grav_wave_events/S000000xx')).status).toBe(404);
  });
});
