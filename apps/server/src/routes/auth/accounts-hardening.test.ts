import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HttpSession } from '../../testing/http-session.ts';
import { type MailCatcher, startMailCatcher } from '../../testing/mail-catcher.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// Issue #49 pt 4 over real HTTP: the registration throttle, username checks, refresh-token rotation with
// reuse detection, strict token claims, and e-mail verification with a real SMTP server on loopback.
const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';
let server: TestServer;
let smtp: MailCatcher;

beforeAll(async () => {
  smtp = await startMailCatcher();
  server = await startTestServer({
    config: {
      jwtSecret: SECRET,
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      publicUrl: 'https://antares.example.org',
      requireEmailVerification: true,
    },
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const registration = (username: string, email = `${Math.random().toString(36).slice(2, 10)}@example.org`) => ({
  data: { type: 'user', attributes: { name: 'Vera Rubin', username, email, password: 'Galaxy2026' } },
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function login(username: string): Promise<{ access: string; refresh: string }> {
  const response = await post('/v1/auth/login?type=token', { username, password: 'Galaxy2026' });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { access_token: string; refresh_token: string };
  return { access: body.access_token, refresh: body.refresh_token };
}

const refreshWith = async (token: string) => {
  const response = await fetch(`${server.url}/v1/auth/refresh?type=token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as any };
};
const check = async (access: string) =>
  (await fetch(`${server.url}/v1/auth/check`, { headers: { authorization: `Bearer ${access}` } })).status;

describe('usernames', () => {
  it('are stored in NFKC form, and log in typed either way', async () => {
    const created = await post('/v1/users', registration('ｆｕｌｌｗｉｄｔｈ'));
    expect(created.status).toBe(201);
    expect(((await created.json()) as any).data.attributes.username).toBe('fullwidth');
    expect((await post('/v1/auth/login?type=token', { username: 'ｆｕｌｌｗｉｄｔｈ', password: 'Galaxy2026' })).status).toBe(200);
    // The NFKC form is the stored one: the fullwidth name is taken, not confusable.
    const again = await post('/v1/users', registration('Fullwidth'));
    expect(again.status).toBe(409);
    expect(((await again.json()) as any).errors[0].detail).toBe('This username is already in use, please choose a different one.');
  });

  it('refuse control and zero-width characters with 400', async () => {
    for (const username of ['zero\u200bwidth', 'joiner\u200dname', 'bidi\u202eeman', 'tab\tname', 'bom\ufeffname', 'blank\u3164name']) {
      const response = await post('/v1/users', registration(username));
      expect(response.status, JSON.stringify(username)).toBe(400);
      expect(((await response.json()) as any).errors[0].detail).toBe('username: Field contains invalid characters.');
    }
    expect(await server.repos.users.findByUsername('zero\u200bwidth')).toBeUndefined();
  });

  it('refuse a name confusable with an existing one with 409', async () => {
    expect((await post('/v1/users', registration('hubble'))).status).toBe(201);
    // Digits for letters, Cyrillic and Greek look-alikes, a diacritic, a separator, rn for m, case.
    for (const username of ['hubb1e', 'hubbІe', 'hυbble', 'hübble', 'hub.ble', 'HUBBLE_', 'hubbie']) {
      const response = await post('/v1/users', registration(username));
      expect(response.status, username).toBe(409);
      expect(((await response.json()) as any).errors[0].detail).toBe(
        'This username looks too much like one already in use, please choose a different one.',
      );
    }
    expect((await post('/v1/users', registration('hubbles'))).status).toBe(201);
    expect((await post('/v1/users', registration('ternan'))).status).toBe(201);
    expect((await post('/v1/users', registration('teman'))).status).toBe(409);
  });

  it('compare with accounts made outside registration too (no skeleton stored yet)', async () => {
    await server.repos.users.create({ username: 'operator0', email: 'op@example.org', name: 'Op', password_hash: 'x' });
    expect((await post('/v1/users', registration('0perat0r0'))).status).toBe(409);
    expect((await server.repos.users.findByUsername('operator0'))?.username_skeleton).toBe('operatoro');
  });

  it('of look-alikes sent at once: one account at most', async () => {
    const names = ['kepler', 'kep1er', 'KEPLER', 'kерler', 'k.epler'];
    const statuses = await Promise.all(names.map(async (name) => (await post('/v1/users', registration(name))).status));
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(names.length - 1);
  });
});

describe('refresh tokens', () => {
  it('are rotated: each refresh returns a new refresh token, and the chain goes on', async () => {
    await server.repos.users.create({ username: 'rotator', email: 'r@example.org', name: 'R', password_hash: await hashOf() });
    let { refresh } = await login('rotator');
    for (let i = 0; i < 3; i++) {
      const next = await refreshWith(refresh);
      expect(next.status).toBe(200);
      expect(next.body.refresh_token).toBeTypeOf('string');
      expect(next.body.refresh_token).not.toBe(refresh);
      expect(await check(next.body.access_token)).toBe(200);
      refresh = next.body.refresh_token;
    }
  });

  it('used twice end the session: the second use, the successor and every access token of it are 401', async () => {
    await server.repos.users.create({ username: 'reused', email: 'u@example.org', name: 'U', password_hash: await hashOf() });
    const first = await login('reused');
    const other = await login('reused');
    const next = await refreshWith(first.refresh);
    expect(next.status).toBe(200);
    const replay = await refreshWith(first.refresh);
    expect(replay.status).toBe(401);
    expect(replay.body.errors[0].detail).toBe('This refresh token has already been used: the session has ended, please log in again');
    expect((await refreshWith(next.body.refresh_token)).status).toBe(401);
    expect(await check(next.body.access_token)).toBe(401);
    expect(await check(first.access)).toBe(401);
    // Another login of the account is another session: it goes on.
    expect(await check(other.access)).toBe(200);
    expect((await refreshWith(other.refresh)).status).toBe(200);
  });

  it('rotate in cookie sessions as the web app holds them', async () => {
    await server.repos.users.create({ username: 'browser', email: 'b@example.org', name: 'B', password_hash: await hashOf() });
    const session = new HttpSession(server.url);
    expect((await session.post('/v1/auth/login?type=cookie', { username: 'browser', password: 'Galaxy2026' })).status).toBe(200);
    const spent = session.cookies.get('refresh_token_cookie')!;
    const spentCsrf = session.cookies.get('csrf_refresh_token')!;
    for (let i = 0; i < 2; i++) expect((await session.post('/v1/auth/refresh?type=cookie')).status).toBe(200);
    expect(session.cookies.get('refresh_token_cookie')).not.toBe(spent);
    expect((await session.get('/v1/auth/check')).status).toBe(200);
    // A copy of the first cookie, replayed: the browser's session ends too.
    const thief = await fetch(`${server.url}/v1/auth/refresh?type=cookie`, {
      method: 'POST',
      headers: { cookie: `refresh_token_cookie=${spent}`, 'x-csrf-token': spentCsrf },
    });
    expect(thief.status).toBe(401);
    expect((await session.get('/v1/auth/check')).status).toBe(401);
  });
});

describe('token claims', () => {
  const key = new TextEncoder().encode(SECRET);
  const sign = (claims: Record<string, unknown>, options: { sub?: string; exp?: boolean } = {}) => {
    let jwt = new SignJWT({ type: 'access', csrf: 'c', fresh: false, pwd: 'p', ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti('j')
      .setIssuedAt();
    if (options.sub !== undefined) jwt = jwt.setSubject(options.sub);
    if (options.exp !== false) jwt = jwt.setExpirationTime('10m');
    return jwt.sign(key);
  };

  it('refuse a token without exp, signed with the real key, with 401', async () => {
    const user = await server.repos.users.findByUsername('rotator');
    const response = await fetch(`${server.url}/v1/auth/check`, {
      headers: { authorization: `Bearer ${await sign({}, { sub: String(user!.user_id), exp: false })}` },
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as any).errors[0].detail).toBe('Token is invalid');
  });

  it('refuse a malformed sub with 401, not 500', async () => {
    for (const sub of ['abc', '', '1.5', '-1', '0', '1e3', '99999999999999999999', ' 1']) {
      for (const path of ['/v1/auth/check', '/v1/users/@self/watch_lists']) {
        const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${await sign({}, { sub })}` } });
        expect(response.status, `${path} sub=${JSON.stringify(sub)}`).toBe(401);
      }
    }
    // And as a refresh token, which takes another way in.
    const refresh = await new SignJWT({ type: 'refresh', csrf: 'c', pwd: 'p' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('not-a-number')
      .setJti('r')
      .setExpirationTime('10m')
      .sign(key);
    expect((await refreshWith(refresh)).status).toBe(401);
  });
});

describe('e-mail verification', () => {
  const dryRun = (session: HttpSession) =>
    session.post('/v1/filters/test', { data: { type: 'filter_test', attributes: { code: 'x = 1', last_n: 1 } } });
  const codeBacktest = (session: HttpSession) =>
    session.post('/v1/filters/test/backtests', { data: { type: 'backtest', attributes: { code: 'x = 1' } } });

  it('mails a link at registration; dry runs and backtests are 403 until it is followed', async () => {
    const before = smtp.mails.length;
    expect((await post('/v1/users', registration('newcomer', 'newcomer@example.org'))).status).toBe(201);
    await expect.poll(() => smtp.mails.length, { timeout: 5000 }).toBe(before + 1);
    const mail = smtp.mails
      .at(-1)!
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    expect(mail).toContain('newcomer@example.org');
    const link = /https:\/\/antares\.example\.org(\/v1\/auth\/verify-email\?token=[\w.%-]+)/.exec(mail);
    expect(link).not.toBeNull();

    const session = new HttpSession(server.url);
    expect((await session.post('/v1/auth/login?type=cookie', { username: 'newcomer', password: 'Galaxy2026' })).status).toBe(200);
    for (const call of [dryRun, codeBacktest]) {
      const refused = await call(session);
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].detail).toMatch(/^Confirm your e-mail address first/);
    }
    // A forged link confirms nothing.
    expect((await fetch(`${server.url}/v1/auth/verify-email?token=${link![1].split('token=')[1].slice(0, -4)}xxxx`)).status).toBe(401);
    expect((await dryRun(session)).status).toBe(403);

    const confirmed = await fetch(`${server.url}${link![1]}`);
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as any).message).toBe('Your e-mail address is confirmed: you can now test and backtest filters.');
    expect((await server.repos.users.findByUsername('newcomer'))?.email_verified_at).toBeInstanceOf(Date);
    // Past the check: this test server has no sandbox, so a dry run is 503; the backtest is queued.
    expect((await dryRun(session)).status).toBe(503);
    expect((await codeBacktest(session)).status).toBe(202);
    // Following the link again changes nothing.
    expect((await fetch(`${server.url}${link![1]}`)).status).toBe(200);
  });

  it('is not asked of accounts made by an operator', async () => {
    await server.repos.users.create({ username: 'operated', email: 'o@example.org', name: 'O', password_hash: await hashOf() });
    const session = new HttpSession(server.url);
    expect((await session.post('/v1/auth/login?type=cookie', { username: 'operated', password: 'Galaxy2026' })).status).toBe(200);
    expect((await dryRun(session)).status).toBe(503);
  });
});

describe('registration throttle', () => {
  it('answers a burst from one address with 429 and Retry-After, and other addresses are not held up by it', async () => {
    const limited = await startTestServer({
      config: { registrationsPerAddressPerHour: 3, registrationsPerHour: 100, trustedProxies: ['127.0.0.1'] },
    });
    try {
      const from = (address: string, username: string) =>
        fetch(`${limited.url}/v1/users`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify(registration(username)),
        });
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 6; i++) {
        last = await from('203.0.113.7', `burst${String.fromCharCode(97 + i)}user`);
        statuses.push(last.status);
      }
      expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await last!.json()) as any;
      expect(body.errors[0].status).toBe('429');
      expect(body.errors[0].detail).toMatch(/^Too many registrations; try again in \d+ seconds?$/);
      expect(await limited.repos.users.findByUsername('burstduser')).toBeUndefined();
      // A refused field costs nothing; another address has its own allowance.
      expect((await from('198.51.100.2', 'ab')).status).toBe(400);
      for (const name of ['otheraddra', 'otheraddrb', 'otheraddrc']) expect((await from('198.51.100.2', name)).status).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

async function hashOf(): Promise<string> {
  const { hashPassword } = await import('../../auth/passwords.ts');
  return hashPassword('Galaxy2026');
}
