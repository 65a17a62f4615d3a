import path from 'node:path';

import { decodeAvroFile, expandInputs, ingestFiles, WatchMatcher } from '@antares/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '../../auth/passwords.ts';
import { HttpSession } from '../../testing/http-session.ts';
import { SHARED_DATA, startTestServer, type TestServer } from '../../testing/test-server.ts';

// Watch lists over HTTP, and the pipeline matching real ZTF alerts against them.
let server: TestServer;
const as: Record<'owner' | 'other' | 'admin', HttpSession> = {} as never;
const ids: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer();
  const hash = await hashPassword('Galaxy2026');
  for (const [name, admin] of [
    ['owner', false],
    ['other', false],
    ['admin', true],
  ] as const) {
    ids[name] = (await server.repos.users.create({
      username: `${name}-w`,
      email: `${name}-w@example.org`,
      name,
      password_hash: hash,
      admin,
    }))!.user_id;
    as[name] = new HttpSession(server.url);
    await as[name].post('/v1/auth/login?type=cookie', { username: `${name}-w`, password: 'Galaxy2026' });
  }
});
afterAll(async () => server?.close());

const body = (attributes: Record<string, unknown>) => ({ data: { type: 'watch_list', attributes } });
const OBJECT = { right_ascension: 10.5, declination: -3.25, radius: 0.001, comment: 'a star' };
const create = (attributes: Record<string, unknown>, session = as.owner, userId = ids.owner) =>
  session.post(`/v1/users/${userId}/watch_lists`, body({ name: 'Mine', description: 'Things I watch', objects: [OBJECT], ...attributes }));

describe('watch lists', () => {
  it('creates, lists (newest first with meta.count), reads with its objects, and deletes', async () => {
    const first = await create({ name: 'First', slack_channel: '#my-channel' });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      type: 'watch_list',
      attributes: { name: 'First', slack_channel: '#my-channel', object_count: 1 },
    });
    const second = await create({ name: 'Second', objects: [OBJECT, { right_ascension: 359.9, declination: 89.5, radius: 0.01 }] });
    const listed = await as.owner.get(`/v1/users/${ids.owner}/watch_lists?page%5Blimit%5D=10`);
    expect(listed.body.meta.count).toBe(2);
    expect(listed.body.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toEqual(['Second', 'First']);
    expect(listed.body.data[0].attributes.objects).toBeUndefined();

    const detail = await as.owner.get(`/v1/watch_lists/${second.body.data.id}`);
    expect(detail.body.data.attributes.object_count).toBe(2);
    expect(
      detail.body.data.attributes.objects.map((o: Record<string, unknown>) => [o.right_ascension, o.declination, o.radius, o.comment]),
    ).toEqual(
      expect.arrayContaining([
        [10.5, -3.25, 0.001, 'a star'],
        [359.9, 89.5, 0.01, null],
      ]),
    );
    expect(detail.body.data.relationships.owner.data).toEqual({ type: 'user', id: String(ids.owner) });

    expect((await as.owner.delete(`/v1/watch_lists/${first.body.data.id}`)).status).toBe(204);
    expect((await as.owner.get(`/v1/watch_lists/${first.body.data.id}`)).status).toBe(404);
    expect((await as.owner.get(`/v1/users/${ids.owner}/watch_lists`)).body.meta.count).toBe(1);
  });

  it('is owner-only: others get 404 or 403, admins may read but not delete, anonymous 401', async () => {
    const list = (await create({ name: 'Private' })).body.data;
    expect((await as.other.get(`/v1/watch_lists/${list.id}`)).status).toBe(404);
    expect((await as.other.delete(`/v1/watch_lists/${list.id}`)).status).toBe(404);
    expect((await as.other.get(`/v1/users/${ids.owner}/watch_lists`)).status).toBe(403);
    expect((await create({}, as.other, ids.owner)).status).toBe(403);
    expect((await as.admin.get(`/v1/watch_lists/${list.id}`)).status).toBe(200);
    expect((await as.admin.get(`/v1/users/${ids.owner}/watch_lists`)).status).toBe(200);
    expect((await as.admin.delete(`/v1/watch_lists/${list.id}`)).status).toBe(403);
    expect((await new HttpSession(server.url).get(`/v1/watch_lists/${list.id}`)).status).toBe(401);
  });

  it('enforces the spec limits with its messages, and stores nothing on bad input', async () => {
    const before = (await as.owner.get(`/v1/users/${ids.owner}/watch_lists`)).body.meta.count;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: '' }, 'name: Field is required.', '/data/attributes/name'],
      [{ description: '  ' }, 'description: Field is required.', '/data/attributes/description'],
      [
        { slack_channel: `#${'x'.repeat(100)}` },
        'slack_channel: Field may not have more than 100 characters.',
        '/data/attributes/slack_channel',
      ],
      [{ objects: [] }, 'objects: Field is required.', '/data/attributes/objects'],
      [
        { objects: [OBJECT, { ...OBJECT, radius: 0.02 }] },
        'objects[1].radius: Field must be between 0 and 0.01.',
        '/data/attributes/objects/1/radius',
      ],
      [
        { objects: [{ ...OBJECT, right_ascension: 360.5 }] },
        'objects[0].right_ascension: Field must be between 0 and 360.',
        '/data/attributes/objects/0/right_ascension',
      ],
      [
        { objects: [{ ...OBJECT, declination: -91 }] },
        'objects[0].declination: Field must be between -90 and 90.',
        '/data/attributes/objects/0/declination',
      ],
      [
        { objects: [{ ...OBJECT, declination: 'north' }] },
        'objects[0].declination: Field must be a number.',
        '/data/attributes/objects/0/declination',
      ],
      [{ objects: [{ right_ascension: 1, declination: 2 }] }, 'objects[0].radius: Field is required.', '/data/attributes/objects/0/radius'],
    ];
    for (const [attributes, detail, pointer] of cases) {
      const response = await create(attributes);
      expect(response.status, detail).toBe(400);
      expect(response.body.errors[0]).toMatchObject({ status: '400', detail, source: { pointer } });
    }
    expect((await as.owner.get(`/v1/users/${ids.owner}/watch_lists`)).body.meta.count).toBe(before);
  });

  it('accepts 100,000 objects in one request', async () => {
    const objects = Array.from({ length: 100_000 }, (_, i) => ({
      right_ascension: (i * 0.0036) % 360,
      declination: -80 + (i % 1600) * 0.1,
      radius: 0.0005,
    }));
    const response = await create({ name: 'Big', objects });
    expect(response.status).toBe(201);
    expect(response.body.data.attributes.object_count).toBe(100_000);
    const detail = await as.owner.get(`/v1/watch_lists/${response.body.data.id}`);
    expect(detail.body.data.attributes.objects).toHaveLength(100_000);
    await as.owner.delete(`/v1/watch_lists/${response.body.data.id}`);
  }, 240_000); // the history match of 100,000 objects takes a minute on a busy 2-core machine
});

describe('matching real alerts', () => {
  it('marks the loci of alerts within an object, searchably, and queues one chat message per (object, alert)', async () => {
    const folder = path.join(SHARED_DATA, 'ztf-avro-alert/samples');
    const files = expandInputs([folder]);
    const positions: Array<{ ra: number; dec: number; objectId: string }> = [];
    for (const file of files) {
      for await (const record of decodeAvroFile(file)) {
        if ('packet' in record && record.packet.survey === 'ztf')
          positions.push({
            ra: record.packet.candidate.ra as number,
            dec: record.packet.candidate.dec as number,
            objectId: record.packet.objectId,
          });
      }
    }
    expect(positions.length).toBeGreaterThan(1);
    const objects = [
      ...positions.map((p) => ({ right_ascension: p.ra, declination: p.dec + 0.0002, radius: 0.0005, comment: p.objectId })),
      { right_ascension: 0.5, declination: 0.5, radius: 0.01, comment: 'nothing here' },
    ];
    const list = (await create({ name: 'ZTF samples', slack_channel: '#watchers', objects })).body.data;
    const watch = new WatchMatcher('http://antares.test');
    const stats = await ingestFiles(server.repos, files, { watch });
    expect(stats.packetsStored).toBeGreaterThan(0);

    const query = encodeURIComponent(JSON.stringify({ query: { bool: { filter: { term: { watch_list_ids: list.id } } } } }));
    const matched = await server.getJson(`/v1/loci?elasticsearch_query%5Blocus_listing%5D=${query}&page%5Blimit%5D=50`);
    expect(matched.status).toBe(200);
    expect(matched.body.meta.count).toBe(stats.packetsStored);
    const outbox = await server.repos.chatOutbox.due(100);
    expect(outbox).toHaveLength(stats.packetsStored);
    expect(outbox.every((m) => m.channel === '#watchers')).toBe(true);
    const locusIds = matched.body.data.map((d: { id: string }) => d.id);
    for (const message of outbox) {
      expect(message.text).toMatch(
        /^Watch list \*ZTF samples\*: object "ZTF\w+" \(RA [\d.]+, Dec -?[\d.]+\) has a new alert on <http:\/\/antares\.test\/loci\/(ANT\w+)\|\1>: [gRi]-band magnitude \d+\.\d\d at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
      );
      expect(locusIds).toContain(/loci\/(ANT\w+)\|/.exec(message.text)![1]);
    }
    const far = await server.repos.watchLists.objects(Number(list.id));
    const farId = String(far.find((o) => o.comment === 'nothing here')!.watch_object_id);
    const withFar = encodeURIComponent(JSON.stringify({ query: { bool: { filter: { term: { watch_object_ids: farId } } } } }));
    expect((await server.getJson(`/v1/loci?elasticsearch_query%5Blocus_listing%5D=${withFar}`)).body.meta.count).toBe(0);

    // The same alerts again: nothing new to tell.
    await ingestFiles(server.repos, files, { watch });
    expect(await server.repos.chatOutbox.pendingCount()).toBe(stats.packetsStored);
  });
});
