import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { HttpSession } from '../testing/http-session.ts';
import { hashPassword } from '../auth/passwords.ts';

// Every /v1 endpoint that needs a user, called by an anonymous visitor, the owner, another user and an admin.
let server: TestServer;
const sessions: Record<'anonymous' | 'user' | 'other' | 'admin', HttpSession> = {} as never;
const ids: Record<string, number> = {};
let locusId = '';

beforeAll(async () => {
  server = await startTestServer({ ingest: ['ztf-avro-alert/samples'] });
  const hash = await hashPassword('Galaxy2026');
  for (const [name, admin] of [['user', false], ['other', false], ['admin', true]] as const) {
    const row = await server.repos.users.create({ username: `${name}-account`, email: `${name}@example.org`, name, password_hash: hash, admin });
    ids[name] = row!.user_id;
    sessions[name] = new HttpSession(server.url);
    const login = await sessions[name].post('/v1/auth/login?type=cookie', { username: `${name}-account`, password: 'Galaxy2026' });
    expect(login.status).toBe(200);
  }
  sessions.anonymous = new HttpSession(server.url);
  locusId = (await sessions.anonymous.get('/v1/loci?page%5Blimit%5D=1')).body.data[0].id;
});
afterAll(async () => server?.close());

type Who = keyof typeof sessions;

describe('permission matrix', () => {
  it('gives each caller the expected status on every authenticated endpoint', async () => {
    const annotation = await sessions.user.post(`/v1/users/${ids.user}/locus_annotations`, {
      data: { type: 'locus_annotation', attributes: { comment: 'mine', favorited: true }, relationships: { locus: { data: { type: 'locus', id: locusId } } } },
    });
    expect(annotation.status).toBe(201);
    const annotationId = annotation.body.data.id;
    const favorites = { data: [{ type: 'locus', id: locusId }] };
    const matrix: Array<[string, string, unknown, Record<Who, number>]> = [
      ['GET', '/v1/auth/check', undefined, { anonymous: 401, user: 200, other: 200, admin: 200 }],
      ['GET', '/v1/users', undefined, { anonymous: 401, user: 403, other: 403, admin: 200 }],
      ['GET', `/v1/users/${ids.user}`, undefined, { anonymous: 401, user: 200, other: 403, admin: 200 }],
      ['PATCH', `/v1/users/${ids.user}`, { data: { attributes: { staff: true } } }, { anonymous: 401, user: 403, other: 403, admin: 200 }],
      ['GET', `/v1/users/${ids.user}/locus_annotations`, undefined, { anonymous: 401, user: 200, other: 403, admin: 200 }],
      ['PATCH', `/v1/locus_annotations/${annotationId}`, { data: { attributes: { comment: 'changed' } } }, { anonymous: 401, user: 200, other: 403, admin: 403 }],
      ['POST', `/v1/users/${ids.user}/relationships/favorite_loci`, favorites, { anonymous: 401, user: 204, other: 403, admin: 403 }],
      ['DELETE', `/v1/users/${ids.user}/relationships/favorite_loci`, favorites, { anonymous: 401, user: 204, other: 403, admin: 403 }],
      ['POST', '/v1/announcements', { data: { attributes: { message: 'Hello', variant: 'info' } } }, { anonymous: 401, user: 403, other: 403, admin: 201 }],
      ['GET', '/v1/announcements', undefined, { anonymous: 200, user: 200, other: 200, admin: 200 }],
    ];
    for (const [method, path, body, expected] of matrix) {
      for (const who of Object.keys(expected) as Who[]) {
        const response = await sessions[who].request(method, path, { body });
        expect(response.status, `${who} ${method} ${path}`).toBe(expected[who]);
        if (expected[who] === 401) expect(response.body.errors[0].detail).toMatch(/^Must be authenticated to call \w+$/);
      }
    }
  });

  it('requires the CSRF header on unsafe cookie-authenticated calls', async () => {
    const response = await sessions.admin.post('/v1/announcements', { data: { attributes: { message: 'x', variant: 'info' } } }, { csrf: false });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].detail).toMatch(/CSRF/);
  });
});

describe('annotations and favorites', () => {
  it('keeps one annotation per (locus, owner) and lists favorites', async () => {
    const body = { data: { type: 'locus_annotation', attributes: {}, relationships: { locus: { data: { type: 'locus', id: locusId } } } } };
    const first = await sessions.other.post('/v1/locus_annotations', body);
    expect(first.status).toBe(201);
    expect(first.body.data.attributes).toMatchObject({ comment: '', favorited: false });
    expect((await sessions.other.post('/v1/locus_annotations', body)).status).toBe(409);
    const tooLong = await sessions.other.patch(`/v1/locus_annotations/${first.body.data.id}`, { data: { attributes: { comment: 'x'.repeat(256) } } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0].detail).toContain('Field may not have more than 255 characters.');
    expect((await sessions.other.post(`/v1/users/${ids.other}/relationships/favorite_loci`, { data: [{ type: 'locus', id: locusId }] })).status).toBe(204);
    const list = await sessions.other.get(`/v1/users/${ids.other}/locus_annotations?page%5Blimit%5D=1000&page%5Boffset%5D=0`);
    expect(list.body.meta.count).toBe(1);
    expect(list.body.data[0].attributes.favorited).toBe(true);
    expect(list.body.data[0].relationships.locus.data.id).toBe(locusId);
    const missing = await sessions.other.post(`/v1/users/${ids.other}/relationships/favorite_loci`, { data: [{ type: 'locus', id: 'ANT2020none' }] });
    expect(missing.status).toBe(404);
  });
});

describe('announcements', () => {
  it('creates, filters and toggles announcements with the spec limits', async () => {
    const tooLong = await sessions.admin.post('/v1/announcements', { data: { attributes: { message: 'x'.repeat(2049), variant: 'info' } } });
    expect(tooLong.body.errors[0].detail).toContain('Field may not have more than 2048 characters.');
    expect((await sessions.admin.post('/v1/announcements', { data: { attributes: { message: 'x', variant: 'purple' } } })).status).toBe(400);
    const created = await sessions.admin.post('/v1/announcements', { data: { attributes: { message: 'Maintenance tonight', variant: 'warning', active: true } } });
    expect(created.status).toBe(201);
    const filter = encodeURIComponent(JSON.stringify([{ field: 'active', op: 'eq', value: true }]));
    const active = await sessions.anonymous.get(`/v1/announcements?filter=${filter}`);
    expect(active.body.data.map((a: any) => a.attributes.message)).toContain('Maintenance tonight');
    expect(active.body.data.every((a: any) => a.attributes.active)).toBe(true);
    const off = await sessions.admin.patch(`/v1/announcements/${created.body.data.id}`, { data: { attributes: { active: false } } });
    expect(off.body.data.attributes.active).toBe(false);
    expect((await sessions.anonymous.get(`/v1/announcements?filter=${filter}`)).body.data.map((a: any) => a.id)).not.toContain(created.body.data.id);
    expect((await sessions.anonymous.get('/v1/announcements?filter=%5B%7B%22field%22%3A%22x%22%7D%5D')).status).toBe(400);
  });
});
