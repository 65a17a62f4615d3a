import { angularSeparationDeg } from '@antares/astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '../../auth/passwords.ts';
import { WatchListHistoryMatcher } from '../../services/watch-list-history.ts';
import { HttpSession } from '../../testing/http-session.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// Watch lists made after the alerts arrived: matched against the stored history (real ZTF alerts).
let server: TestServer;
let owner: HttpSession;
let ownerId: number;
const alertsOf: Record<string, Array<{ ra: number; dec: number }>> = {};

beforeAll(async () => {
  server = await startTestServer({ ingest: ['ztf-avro-alert/samples'] });
  ownerId = (await server.repos.users.create({
    username: 'history-w',
    email: 'history-w@example.org',
    name: 'History',
    password_hash: await hashPassword('Galaxy2026'),
  }))!.user_id;
  owner = new HttpSession(server.url);
  await owner.post('/v1/auth/login?type=cookie', { username: 'history-w', password: 'Galaxy2026' });
  const loci = await server.getJson('/v1/loci?page%5Blimit%5D=100');
  for (const locus of loci.body.data as Array<{ id: string }>) {
    const alerts = await server.getJson(`/v1/loci/${locus.id}/alerts`);
    alertsOf[locus.id] = (alerts.body.data as Array<{ attributes: { properties: Record<string, unknown> } }>)
      .map((a) => ({ ra: a.attributes.properties.ant_ra as number, dec: a.attributes.properties.ant_dec as number }))
      .filter((p) => typeof p.ra === 'number' && typeof p.dec === 'number');
  }
}, 120_000);
afterAll(async () => server?.close());

const search = async (field: 'watch_list_ids' | 'watch_object_ids', id: string): Promise<string[]> => {
  const query = encodeURIComponent(JSON.stringify({ query: { bool: { filter: { term: { [field]: id } } } } }));
  const found = await server.getJson(`/v1/loci?elasticsearch_query%5Blocus_listing%5D=${query}&page%5Blimit%5D=100`);
  expect(found.status).toBe(200);
  return found.body.data.map((d: { id: string }) => d.id).sort();
};

/** The list's detail once its history is matched (the server does it in the background). */
async function matchedDetail(id: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const detail = await owner.get(`/v1/watch_lists/${id}`);
    expect(detail.status).toBe(200);
    if (detail.body.data.attributes.history_matched_at !== null) return detail.body.data;
    if (Date.now() > deadline) throw new Error(`watch list ${id} was not matched against the stored alerts`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a new watch list and the stored alerts', () => {
  it('marks at once the loci with an alert inside an object, sends no notification, and unmarks them when deleted', async () => {
    const [target, other] = Object.keys(alertsOf).filter((id) => alertsOf[id].length > 0);
    expect(other).toBeDefined();
    const alert = alertsOf[target][0];
    // Within 0.0005 deg of an alert of `target`; and one circle beside `other` that holds none of its alerts
    // (its locus lies within the candidates' margin: each alert's own position must decide).
    const nearMiss = { ra: alertsOf[other][0].ra, dec: alertsOf[other][0].dec + 0.0012 };
    expect(alertsOf[other].every((p) => angularSeparationDeg(p.ra, p.dec, nearMiss.ra, nearMiss.dec) > 0.0005)).toBe(true);
    const created = await owner.post(`/v1/users/${ownerId}/watch_lists`, {
      data: {
        type: 'watch_list',
        attributes: {
          name: 'Known sources',
          description: 'Made after their alerts',
          slack_channel: '#history',
          objects: [
            { right_ascension: alert.ra, declination: alert.dec + 0.0002, radius: 0.0005, comment: 'hit' },
            { right_ascension: nearMiss.ra, declination: nearMiss.dec, radius: 0.0005, comment: 'near miss' },
            { right_ascension: 0.5, declination: 0.5, radius: 0.01, comment: 'empty sky' },
          ],
        },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).toHaveProperty('history_matched_at');
    const id = created.body.data.id as string;

    const detail = await matchedDetail(id);
    expect(Number.isNaN(Date.parse(detail.attributes.history_matched_at))).toBe(false);
    expect(detail.attributes.matched_loci).toBe(1);
    expect(await search('watch_list_ids', id)).toEqual([target]);
    const objects = detail.attributes.objects as Array<{ id: string; comment: string }>;
    const objectId = (comment: string) => objects.find((o) => o.comment === comment)!.id;
    expect(await search('watch_object_ids', objectId('hit'))).toEqual([target]);
    expect(await search('watch_object_ids', objectId('near miss'))).toEqual([]);
    expect(await search('watch_object_ids', objectId('empty sky'))).toEqual([]);
    // Notifications are for new alerts only.
    expect(await server.repos.chatOutbox.pendingCount()).toBe(0);
    // The matching state alone, without the objects (what the web page polls).
    const state = await owner.get(`/v1/watch_lists/${id}?fields%5Bwatch_list%5D=history_matched_at,matched_loci`);
    expect(state.body.data.attributes).toEqual({ history_matched_at: detail.attributes.history_matched_at, matched_loci: 1 });
    // The listing says it is matched too.
    const listed = await owner.get(`/v1/users/${ownerId}/watch_lists`);
    expect(listed.body.data.find((l: { id: string }) => l.id === id).attributes.history_matched_at).toBe(
      detail.attributes.history_matched_at,
    );

    expect((await owner.delete(`/v1/watch_lists/${id}`)).status).toBe(204);
    expect(await search('watch_list_ids', id)).toEqual([]);
    expect(await search('watch_object_ids', objectId('hit'))).toEqual([]);
  });

  it('leaves the matches of other lists alone when one is deleted', async () => {
    const [target] = Object.keys(alertsOf).filter((id) => alertsOf[id].length > 0);
    const alert = alertsOf[target][0];
    const make = async (name: string) => {
      const created = await owner.post(`/v1/users/${ownerId}/watch_lists`, {
        data: {
          type: 'watch_list',
          attributes: { name, description: 'Same source', objects: [{ right_ascension: alert.ra, declination: alert.dec, radius: 0.001 }] },
        },
      });
      return created.body.data.id as string;
    };
    const [first, second] = [await make('First'), await make('Second')];
    expect((await matchedDetail(first)).attributes.matched_loci).toBe(1);
    expect((await matchedDetail(second)).attributes.matched_loci).toBe(1);
    await owner.delete(`/v1/watch_lists/${first}`);
    expect(await search('watch_list_ids', second)).toEqual([target]);
    await owner.delete(`/v1/watch_lists/${second}`);
  });

  it('matches at start-up the lists that were never matched (made before, or left by a stop)', async () => {
    const [target] = Object.keys(alertsOf).filter((id) => alertsOf[id].length > 0);
    const alert = alertsOf[target][0];
    // Stored straight into the database, as a list made before history matching existed.
    const list = await server.repos.watchLists.create({ user_id: ownerId, name: 'Older', description: 'Before', slack_channel: null }, [
      { ra: alert.ra, dec: alert.dec, radius: 0.001, comment: null },
    ]);
    const before = await owner.get(`/v1/watch_lists/${list.watch_list_id}`);
    expect(before.body.data.attributes).toMatchObject({ history_matched_at: null, matched_loci: 0 });
    expect(await server.repos.watchLists.pendingHistory()).toEqual([list.watch_list_id]);

    const matcher = new WatchListHistoryMatcher(server.repos);
    await matcher.resume();
    await matcher.idle();
    expect(await server.repos.watchLists.pendingHistory()).toEqual([]);
    const after = await owner.get(`/v1/watch_lists/${list.watch_list_id}`);
    expect(after.body.data.attributes.matched_loci).toBe(1);
    expect(after.body.data.attributes.history_matched_at).not.toBeNull();
    expect(await search('watch_list_ids', String(list.watch_list_id))).toEqual([target]);
  });
});
