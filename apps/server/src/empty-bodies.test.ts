import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HttpSession } from './testing/http-session.ts';
import { signedInSession } from './testing/signed-in.ts';
import { startTestServer, type TestServer } from './testing/test-server.ts';

// Issue #15 point 7: clients send `Content-Type: application/json` on POSTs whose body is optional (logout,
// refresh, finder charts) with nothing after it. That is no body, not Fastify's 400 "Body cannot be empty";
// a route that needs a body still refuses a missing one, with a JSON:API 400 naming what it needs.
let server: TestServer;
let admin: HttpSession;
let adminId: string;
let locusId: string;

/** Ways clients send "JSON, but nothing": the bare type, with a charset, JSON:API's type, or only whitespace. */
const EMPTY_JSON: Array<{ name: string; headers: Record<string, string>; body: string }> = [
  { name: 'application/json, empty', headers: { 'content-type': 'application/json' }, body: '' },
  { name: 'application/json; charset=utf-8, empty', headers: { 'content-type': 'application/json; charset=utf-8' }, body: '' },
  { name: 'application/vnd.api+json, empty', headers: { 'content-type': 'application/vnd.api+json' }, body: '' },
  { name: 'application/json, blank lines', headers: { 'content-type': 'application/json' }, body: ' \r\n\t\n' },
];

/** A request with exactly this content type and body (HttpSession adds cookies and the CSRF header). */
function send(session: HttpSession, method: string, path: string, headers: Record<string, string>, body: string) {
  return session.request(method, path, { raw: new TextEncoder().encode(body), headers });
}

beforeAll(async () => {
  server = await startTestServer({ ingest: ['ztf-avro-alert/samples'] });
  admin = await signedInSession(server, 'emptybodyadmin', { admin: true });
  adminId = String((await server.repos.users.findByUsername('emptybodyadmin'))!.user_id);
  [{ locus_id: locusId }] = await server.repos.catalogs.lociPage('', 1);
});
afterAll(async () => {
  await server?.close();
});

describe('a JSON content type with an empty body is no body where the body is optional', () => {
  let account = 0;
  /** A fresh account logged in by cookie, as the web app is (logout ends it, so each case gets its own). */
  async function freshSession(): Promise<HttpSession> {
    account += 1;
    return signedInSession(server, `emptybody${account}`);
  }

  for (const empty of EMPTY_JSON) {
    it(`POST /v1/auth/refresh and /v1/auth/logout with cookies (${empty.name})`, async () => {
      const session = await freshSession();
      const oldAccess = session.cookies.get('access_token_cookie');
      const refreshed = await send(session, 'POST', '/v1/auth/refresh', empty.headers, empty.body);
      expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
      expect(refreshed.body.user.username).toBe(`emptybody${account}`);
      expect(session.cookies.get('access_token_cookie')).toBeDefined();
      expect(session.cookies.get('access_token_cookie')).not.toBe(oldAccess);
      expect((await session.get('/v1/auth/check')).status).toBe(200);

      const out = await send(session, 'POST', '/v1/auth/logout', empty.headers, empty.body);
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      expect(out.body).toEqual({ logout: true });
      expect(session.cookies.has('access_token_cookie')).toBe(false);
      expect((await session.get('/v1/auth/check')).status).toBe(401);
    });

    it(`POST /v1/auth/refresh?type=token and /v1/auth/logout with bearer tokens (${empty.name})`, async () => {
      const session = await freshSession();
      const login = await session.post('/v1/auth/login?type=token', { username: `emptybody${account}`, password: 'Galaxy2026' });
      expect(login.status).toBe(200);
      const bearer = (token: string) => ({ ...empty.headers, authorization: `Bearer ${token}` });
      const script = new HttpSession(server.url);
      const refreshed = await send(script, 'POST', '/v1/auth/refresh?type=token', bearer(login.body.refresh_token), empty.body);
      expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
      const access = refreshed.body.access_token as string;
      expect(typeof access).toBe('string');
      const check = () => fetch(`${server.url}/v1/auth/check`, { headers: { authorization: `Bearer ${access}` } });
      expect((await check()).status).toBe(200);
      const out = await send(script, 'POST', '/v1/auth/logout?type=token', bearer(access), empty.body);
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      expect((await check()).status).toBe(401);
    });

    it(`POST /v1/loci/{id}/finder-charts (${empty.name})`, async () => {
      const response = await fetch(`${server.url}/v1/loci/${locusId}/finder-charts`, {
        method: 'POST',
        headers: { ...empty.headers, accept: 'application/pdf' },
        body: empty.body,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/pdf/);
      const pdf = Buffer.from(await response.arrayBuffer());
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.toString('latin1')).toContain(`ANTARES finder chart`);
    });
  }
});

describe('a route that needs a body refuses a missing one, naming what it needs', () => {
  /** Each route that reads a body, and the JSON:API detail it answers when there is none. */
  const needing = (): Array<[string, string, string | RegExp]> => [
    ['POST', '/v1/auth/login?type=cookie', 'username and password: Field is required.'],
    ['POST', '/v1/auth/login?type=token', 'username and password: Field is required.'],
    ['POST', '/v1/auth/forgot', 'username: Field is required.'],
    ['POST', '/v1/auth/reset', 'password: Field is required.'],
    [
      'POST',
      '/v1/users',
      /name: Field is required\. username: Field is required\. email: Field is required\. password: Field is required\./,
    ],
    ['PATCH', `/v1/users/${adminId}`, 'Give admin and/or staff (true or false) to change'],
    ['POST', `/v1/users/${adminId}/watch_lists`, 'name: Field is required.'],
    ['POST', '/v1/locus_annotations', 'The annotation needs a locus (relationships.locus.data.id)'],
    ['POST', `/v1/users/${adminId}/locus_annotations`, 'The annotation needs a locus (relationships.locus.data.id)'],
    ['POST', `/v1/users/${adminId}/filters`, 'name: Field is required.'],
    ['POST', '/v1/filters/test', 'code: Field is required.'],
    ['POST', '/v1/announcements', 'message: Field is required.'],
    ['PATCH', '/v1/filter_runner/nuclear_transient', 'enabled: Field is required.'],
    ['POST', '/v1/grav_wave_notices', 'a notice is a JSON object'],
    ['POST', '/v1/alert_uploads', 'The upload is empty: send an Avro alert file as the request body'],
  ];

  it('with a JSON content type and nothing after it, or with no body and no content type at all', async () => {
    for (const [method, path, detail] of needing()) {
      for (const empty of [...EMPTY_JSON, { name: 'no body', headers: {}, body: '' }]) {
        const response =
          empty.name === 'no body' ? await admin.request(method, path) : await send(admin, method, path, empty.headers, empty.body);
        const where = `${method} ${path} (${empty.name}): ${JSON.stringify(response.body)}`;
        expect(response.status, where).toBe(400);
        expect(response.headers.get('content-type'), where).toMatch(/^application\/(vnd\.api\+)?json/);
        const [error] = response.body.errors;
        expect(error.status, where).toBe('400');
        if (typeof detail === 'string') expect(error.detail, where).toBe(detail);
        else expect(error.detail, where).toMatch(detail);
        expect(error.detail, where).not.toMatch(/Body cannot be empty/);
      }
    }
  });

  it('takes neither a malformed body nor one that is not an object for an empty one', async () => {
    for (const [body, detail] of [
      ['{', /JSON/i],
      ['{"username": ', /JSON/i],
      ['[]', /^The request body must be a JSON object$/],
      ['null', /^The request body must be a JSON object$/],
      ['"text"', /^The request body must be a JSON object$/],
    ] as const) {
      const response = await send(
        new HttpSession(server.url),
        'POST',
        '/v1/auth/login?type=token',
        { 'content-type': 'application/json' },
        body,
      );
      expect(response.status, body).toBe(400);
      expect(response.body.errors[0].status).toBe('400');
      expect(response.body.errors[0].detail, body).toMatch(detail);
    }
    // Logout with a malformed body is refused too: only an empty one stands for "no body".
    const session = await signedInSession(server, 'emptybodymalformed');
    const out = await send(session, 'POST', '/v1/auth/logout', { 'content-type': 'application/json' }, '{');
    expect(out.status).toBe(400);
    expect((await session.get('/v1/auth/check')).status).toBe(200);
  });
});
