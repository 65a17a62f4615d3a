import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TokenService } from '../../auth/tokens.ts';
import { HttpSession } from '../../testing/http-session.ts';
import { type MailCatcher, startMailCatcher } from '../../testing/mail-catcher.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// Sessions, registration and password reset over real HTTP, with a real SMTP server on loopback.
let server: TestServer;
let smtp: MailCatcher;

beforeAll(async () => {
  smtp = await startMailCatcher();
  server = await startTestServer({ config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, publicUrl: 'https://antares.example.org' } });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const register = (session: HttpSession, username: string, overrides: Record<string, string> = {}) =>
  session.post('/v1/users', {
    data: {
      type: 'user',
      attributes: { name: 'Vera Rubin', username, email: `${username}@example.org`, password: 'Galaxy2026', ...overrides },
    },
  });

describe('registration', () => {
  it('creates a user and refuses a taken username (any case) with the spec message', async () => {
    const session = new HttpSession(server.url);
    const created = await register(session, 'vrubin');
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).toMatchObject({ username: 'vrubin', admin: false, staff: false });
    expect(created.body.data.attributes.password_hash).toBeUndefined();
    const again = await register(session, 'VRubin');
    expect(again.status).toBe(409);
    expect(again.body.errors[0].detail).toBe('This username is already in use, please choose a different one.');
  });

  it('enforces the spec password, username and email rules with their messages', async () => {
    const session = new HttpSession(server.url);
    const cases: Array<[Record<string, string>, string]> = [
      [{ password: 'short1A' }, 'Field must have between 8 and 256 characters.'],
      [{ password: 'longenough' }, 'Field must contain at least one number and one uppercase letter.'],
      [{ username: 'abc' }, 'Field must have between 4 and 64 characters.'],
      [{ email: 'not-an-email' }, 'Field must be a valid email address.'],
      [{ name: '' }, 'Field is required.'],
    ];
    for (const [overrides, message] of cases) {
      const response = await register(session, overrides.username ?? `user${Math.random().toString(36).slice(2, 8)}`, overrides);
      expect(response.status).toBe(400);
      expect(response.body.errors[0].detail).toContain(message);
    }
  });
});

describe('registration: what it does not give', () => {
  it('refuses the system account name (owner of the shipped filters) like a taken one', async () => {
    const session = new HttpSession(server.url);
    for (const username of ['antares', 'ANTARES', 'Antares']) {
      const response = await register(session, username);
      expect(response.status, username).toBe(409);
      expect(response.body.errors[0].detail).toBe('This username is already in use, please choose a different one.');
    }
    expect(await server.repos.users.findByUsername('antares')).toBeUndefined();
  });

  it('ignores admin and staff flags in a registration and stores an argon2id hash', async () => {
    const session = new HttpSession(server.url);
    const created = await register(session, 'climber', { admin: 'true', staff: 'true' } as never);
    const sneaky = await session.post('/v1/users', {
      data: {
        type: 'user',
        attributes: { name: 'S', username: 'climber2', email: 'c2@example.org', password: 'Galaxy2026', admin: true, staff: true },
      },
    });
    expect(created.status).toBe(201);
    expect(sneaky.status).toBe(201);
    expect(sneaky.body.data.attributes).toMatchObject({ admin: false, staff: false });
    const row = await server.repos.users.findByUsername('climber2');
    expect(row).toMatchObject({ admin: false, staff: false });
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.password_hash).not.toContain('Galaxy2026');
  });
});

describe('login, check, refresh and logout', () => {
  it('logs in with cookies (HttpOnly, SameSite=Lax), checks the session, and rejects wrong passwords alike', async () => {
    const session = new HttpSession(server.url);
    await register(session, 'annie');
    const wrong = await session.post('/v1/auth/login?type=cookie', { username: 'annie', password: 'Wrong1234' });
    const unknown = await session.post('/v1/auth/login?type=cookie', { username: 'nobody-here', password: 'Wrong1234' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body.errors[0].detail).toBe(wrong.body.errors[0].detail);

    const ok = await session.post('/v1/auth/login?type=cookie', { username: 'annie', password: 'Galaxy2026' });
    expect(ok.status).toBe(200);
    expect(ok.body.user.username).toBe('annie');
    const accessCookie = session.setCookieHeaders.find((h) => h.startsWith('access_token_cookie='))!;
    expect(accessCookie).toMatch(/HttpOnly/i);
    expect(accessCookie).toMatch(/SameSite=Lax/i);
    expect(session.setCookieHeaders.find((h) => h.startsWith('csrf_access_token='))).not.toMatch(/HttpOnly/i);
    const check = await session.get('/v1/auth/check');
    expect(check.body.identity).toBe(ok.body.identity);
  });

  it('refuses anonymous, tampered and revoked sessions', async () => {
    const anonymous = new HttpSession(server.url);
    expect((await anonymous.get('/v1/auth/check')).status).toBe(401);
    const session = new HttpSession(server.url);
    await register(session, 'tamper');
    await session.post('/v1/auth/login?type=cookie', { username: 'tamper', password: 'Galaxy2026' });
    const token = session.cookies.get('access_token_cookie')!;
    const [header, payload, signature] = token.split('.');
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString());
    forged.sub = '1';
    session.cookies.set('access_token_cookie', [header, Buffer.from(JSON.stringify(forged)).toString('base64url'), signature].join('.'));
    const tampered = await session.get('/v1/auth/check');
    expect(tampered.status).toBe(401);
    expect(tampered.body.errors[0].detail).toBe('Token is invalid');

    session.cookies.set('access_token_cookie', token);
    expect((await session.post('/v1/auth/logout')).status).toBe(200);
    // The revoked tokens are refused even when a client kept them.
    session.cookies.set('access_token_cookie', token);
    expect((await session.get('/v1/auth/check')).status).toBe(401);
    const refresh = await session.post('/v1/auth/refresh');
    expect(refresh.status).toBe(401);
    expect((await new HttpSession(server.url).post('/v1/auth/logout')).status).toBe(401);
  });

  it('answers an expired access token with a 401 mentioning "expire"; refresh issues a new one', async () => {
    // Three seconds: JWT times are whole seconds, so a one-second token can be dead at birth and the
    // refreshed token below must outlive the next request even on a loaded machine.
    const short = await startTestServer({ config: { accessTokenMinutes: 3 / 60 } });
    try {
      const session = new HttpSession(short.url);
      await register(session, 'expiry');
      await session.post('/v1/auth/login?type=cookie', { username: 'expiry', password: 'Galaxy2026' });
      await new Promise((resolve) => setTimeout(resolve, 4100));
      const expired = await session.get('/v1/auth/check');
      expect(expired.status).toBe(401);
      expect(expired.body.errors[0].detail).toMatch(/expire/);
      expect((await session.post('/v1/auth/refresh', undefined, { csrf: false })).status).toBe(403);
      const refreshed = await session.post('/v1/auth/refresh');
      expect(refreshed.status).toBe(200);
      expect((await session.get('/v1/auth/check')).status).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('gives scripts bearer tokens with type=token', async () => {
    const session = new HttpSession(server.url);
    await register(session, 'scripter');
    const login = await session.post('/v1/auth/login?type=token', { username: 'scripter', password: 'Galaxy2026' });
    const check = await fetch(`${server.url}/v1/auth/check`, { headers: { authorization: `Bearer ${login.body.access_token}` } });
    expect(check.status).toBe(200);
  });

  it('marks the cookies Secure behind https (X-Forwarded-Proto)', async () => {
    const session = new HttpSession(server.url);
    await register(session, 'secure1');
    const plain = await fetch(`${server.url}/v1/auth/login?type=cookie`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'secure1', password: 'Galaxy2026' }),
    });
    expect(plain.headers.getSetCookie().some((c) => /;\s*Secure/i.test(c))).toBe(false);
    const https = await fetch(`${server.url}/v1/auth/login?type=cookie`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ username: 'secure1', password: 'Galaxy2026' }),
    });
    const cookies = https.headers.getSetCookie();
    expect(cookies).toHaveLength(4);
    for (const cookie of cookies) expect(cookie).toMatch(/;\s*Secure/i);
  });

  it('logs out only with a CSRF value of the session (the web app sends the refresh one), revoking both tokens', async () => {
    const session = new HttpSession(server.url);
    await register(session, 'leaver');
    await session.post('/v1/auth/login?type=cookie', { username: 'leaver', password: 'Galaxy2026' });
    const forged = await session.post('/v1/auth/logout?type=cookie', undefined, { csrf: false, headers: { 'x-csrf-token': 'guessed' } });
    expect(forged.status).toBe(403);
    expect((await session.get('/v1/auth/check')).status).toBe(200);
    const refreshToken = session.cookies.get('refresh_token_cookie')!;
    const accessToken = session.cookies.get('access_token_cookie')!;
    const out = await session.post('/v1/auth/logout?type=cookie', undefined, {
      csrf: false,
      headers: { 'x-csrf-token': session.cookies.get('csrf_refresh_token')! },
    });
    expect(out.status).toBe(200);
    expect(session.cookies.has('access_token_cookie')).toBe(false);
    // Refresh after logout: the kept refresh token is refused, and so is the access token.
    const replay = await fetch(`${server.url}/v1/auth/refresh?type=token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${refreshToken}` },
    });
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as any).errors[0].detail).toBe('Token has been revoked');
    expect((await fetch(`${server.url}/v1/auth/check`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(401);
  });

  it('lets scripts refresh and log out with bearer tokens', async () => {
    const session = new HttpSession(server.url);
    await register(session, 'scripter2');
    const login = await session.post('/v1/auth/login?type=token', { username: 'scripter2', password: 'Galaxy2026' });
    const refreshed = await fetch(`${server.url}/v1/auth/refresh?type=token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${login.body.refresh_token}` },
    });
    expect(refreshed.status).toBe(200);
    const access = ((await refreshed.json()) as any).access_token as string;
    expect(access).not.toBe(login.body.access_token);
    const bearer = { authorization: `Bearer ${access}` };
    expect((await fetch(`${server.url}/v1/auth/check`, { headers: bearer })).status).toBe(200);
    // An access token is no refresh token.
    expect((await fetch(`${server.url}/v1/auth/refresh?type=token`, { method: 'POST', headers: bearer })).status).toBe(401);
    expect((await fetch(`${server.url}/v1/auth/logout`, { method: 'POST', headers: bearer })).status).toBe(200);
    expect((await fetch(`${server.url}/v1/auth/check`, { headers: bearer })).status).toBe(401);
  });

  it('ends every other session of an account when its password changes', async () => {
    const laptop = new HttpSession(server.url);
    const phone = new HttpSession(server.url);
    await register(laptop, 'twodevices');
    await laptop.post('/v1/auth/login?type=cookie', { username: 'twodevices', password: 'Galaxy2026' });
    await phone.post('/v1/auth/login?type=cookie', { username: 'twodevices', password: 'Galaxy2026' });
    const { token: oldLink } = await new TokenService(server.config).issue(
      'reset',
      (await server.repos.users.findByUsername('twodevices'))!,
    );
    await laptop.post('/v1/auth/login-fresh?type=cookie', { username: 'twodevices', password: 'Galaxy2026' });
    expect((await laptop.post('/v1/auth/reset?type=cookie', { password: 'Changed2027' })).status).toBe(200);
    expect((await laptop.get('/v1/auth/check')).status).toBe(200);
    expect((await phone.get('/v1/auth/check')).status).toBe(401);
    expect((await phone.post('/v1/auth/refresh?type=cookie')).status).toBe(401);
    // A reset link mailed before the change is dead too.
    const reset = await new HttpSession(server.url).post(
      '/v1/auth/reset?type=cookie',
      { password: 'Another2028' },
      { headers: { authorization: `Bearer ${oldLink}` } },
    );
    expect(reset.status).toBe(401);
    expect((await phone.post('/v1/auth/login?type=cookie', { username: 'twodevices', password: 'Changed2027' })).status).toBe(200);
  });
});

describe('password reset by e-mail', () => {
  it('mails a single-use link; forgot answers the same for unknown users', async () => {
    const session = new HttpSession(server.url);
    await register(session, 'forgetful', { email: 'forgetful@example.org' });
    const unknown = await session.post('/v1/auth/forgot', { username: 'no-such-user' });
    const before = smtp.mails.length;
    const known = await session.post('/v1/auth/forgot', { username: 'forgetful' });
    expect(known.status).toBe(unknown.status);
    expect(known.body).toEqual(unknown.body);
    await expect.poll(() => smtp.mails.length, { timeout: 5000 }).toBe(before + 1);
    const mail = smtp.mails[smtp.mails.length - 1].replace(/=\r?\n/g, '').replace(/=3D/g, '='); // quoted-printable
    expect(mail).toContain('forgetful@example.org');
    // The configured address (ANTARES_PUBLIC_URL), not the request's.
    expect(mail).toContain('https://antares.example.org/forgot-password?token=');
    const token = decodeURIComponent(/forgot-password\?token=([^\s"]+)/.exec(mail)![1]);

    const reset = await new HttpSession(server.url).post(
      '/v1/auth/reset?type=cookie',
      { password: 'NewPass2027' },
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(reset.status).toBe(200);
    const reused = await new HttpSession(server.url).post(
      '/v1/auth/reset?type=cookie',
      { password: 'Other2028x' },
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(reused.status).toBe(401);
    expect(reused.body.errors[0].detail).toBe('This reset link has already been used');
    expect((await session.post('/v1/auth/login?type=cookie', { username: 'forgetful', password: 'NewPass2027' })).status).toBe(200);
  });

  it('mails nothing for the system account, which has no password', async () => {
    await server.repos.users.create({ username: 'antares', email: 'antares@antares.invalid', name: 'ANTARES', password_hash: '!no-login' });
    const before = smtp.mails.length;
    const response = await new HttpSession(server.url).post('/v1/auth/forgot', { username: 'antares' });
    expect(response.status).toBe(202);
    // A mail to a known user arrives within milliseconds on loopback; give this one a full second.
    await register(new HttpSession(server.url), 'control', { email: 'control@example.org' });
    await new HttpSession(server.url).post('/v1/auth/forgot', { username: 'control' });
    await expect.poll(() => smtp.mails.length, { timeout: 5000 }).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.mails.length).toBe(before + 1);
    expect(smtp.mails.at(-1)).toContain('control@example.org');
  });

  it('writes the mail to the outbox folder when no SMTP server is configured', async () => {
    const offline = await startTestServer();
    try {
      const session = new HttpSession(offline.url);
      await register(session, 'offline', { email: 'offline@example.org' });
      expect((await session.post('/v1/auth/forgot', { username: 'offline' })).status).toBe(202);
      const outbox = path.join(offline.config.dataDir, 'outbox');
      await expect.poll(() => (existsSync(outbox) ? readdirSync(outbox).length : 0), { timeout: 5000 }).toBe(1);
      const mail = readFileSync(path.join(outbox, readdirSync(outbox)[0]), 'utf8');
      expect(mail).toContain('To: offline@example.org');
      const token = decodeURIComponent(/forgot-password\?token=(\S+)/.exec(mail)![1]);
      const reset = await new HttpSession(offline.url).post(
        '/v1/auth/reset?type=cookie',
        { password: 'Offline2027' },
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(reset.status).toBe(200);
    } finally {
      await offline.close();
    }
  });

  it('refuses an expired reset token, and a password change without a fresh login', async () => {
    const short = await startTestServer({ config: { resetTokenMinutes: 1 / 60 } });
    try {
      const session = new HttpSession(short.url);
      await register(session, 'slowpoke');
      const { token } = await new TokenService(short.config).issue('reset', (await short.repos.users.findByUsername('slowpoke'))!);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const expired = await session.post(
        '/v1/auth/reset?type=cookie',
        { password: 'NewPass2027' },
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(expired.status).toBe(401);
      expect(expired.body.errors[0].detail).toMatch(/expire/);

      await session.post('/v1/auth/login?type=cookie', { username: 'slowpoke', password: 'Galaxy2026' });
      expect((await session.post('/v1/auth/reset?type=cookie', { password: 'NewPass2027' })).status).toBe(401);
      await session.post('/v1/auth/login-fresh?type=cookie', { username: 'slowpoke', password: 'Galaxy2026' });
      expect((await session.post('/v1/auth/reset?type=cookie', { password: 'weak' })).status).toBe(400);
      expect((await session.post('/v1/auth/reset?type=cookie', { password: 'NewPass2027' })).status).toBe(200);
    } finally {
      await short.close();
    }
  });
});
