import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '../../auth/passwords.ts';
import { HttpSession } from '../../testing/http-session.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// A logout ends the whole session: the access and refresh tokens issued together (and access tokens
// refreshed from it since), whichever of them is presented, as a bearer token or as cookies.
let server: TestServer;
const PASSWORD = 'Galaxy2026';

beforeAll(async () => {
  server = await startTestServer();
  const password_hash = await hashPassword(PASSWORD);
  for (const username of ['bearer-a', 'bearer-r', 'cookie-a', 'cookie-r', 'refreshed', 'two-logins']) {
    await server.repos.users.create({ username, email: `${username}@example.org`, name: username, password_hash });
  }
}, 60_000);
afterAll(async () => server?.close());

async function tokensOf(username: string): Promise<{ access: string; refresh: string }> {
  const login = await new HttpSession(server.url).post('/v1/auth/login?type=token', { username, password: PASSWORD });
  expect(login.status).toBe(200);
  return { access: login.body.access_token, refresh: login.body.refresh_token };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const check = async (access: string) => (await fetch(`${server.url}/v1/auth/check`, { headers: bearer(access) })).status;
async function refresh(token: string): Promise<{ status: number; detail?: string; access?: string }> {
  const response = await fetch(`${server.url}/v1/auth/refresh?type=token`, { method: 'POST', headers: bearer(token) });
  const body = (await response.json()) as any;
  return { status: response.status, detail: body.errors?.[0]?.detail, access: body.access_token };
}
const logout = async (headers: Record<string, string>) => (await fetch(`${server.url}/v1/auth/logout`, { method: 'POST', headers })).status;

describe('logout', () => {
  it('with the bearer access token also revokes its refresh token', async () => {
    const { access, refresh: refreshToken } = await tokensOf('bearer-a');
    expect(await logout(bearer(access))).toBe(200);
    expect(await check(access)).toBe(401);
    expect(await refresh(refreshToken)).toMatchObject({ status: 401, detail: 'Token has been revoked' });
  });

  it('with the bearer refresh token also revokes its access token', async () => {
    const { access, refresh: refreshToken } = await tokensOf('bearer-r');
    expect(await check(access)).toBe(200);
    expect(await logout(bearer(refreshToken))).toBe(200);
    expect(await check(access)).toBe(401);
    expect((await refresh(refreshToken)).status).toBe(401);
  });

  it('with the access cookie alone revokes the refresh token of the session', async () => {
    const session = new HttpSession(server.url);
    expect((await session.post('/v1/auth/login?type=cookie', { username: 'cookie-a', password: PASSWORD })).status).toBe(200);
    const refreshToken = session.cookies.get('refresh_token_cookie')!;
    const access = session.cookies.get('access_token_cookie')!;
    session.cookies.delete('refresh_token_cookie');
    expect((await session.post('/v1/auth/logout?type=cookie')).status).toBe(200);
    expect(await check(access)).toBe(401);
    expect((await refresh(refreshToken)).status).toBe(401);
  });

  it('with the refresh cookie alone revokes the access token of the session', async () => {
    const session = new HttpSession(server.url);
    expect((await session.post('/v1/auth/login?type=cookie', { username: 'cookie-r', password: PASSWORD })).status).toBe(200);
    const access = session.cookies.get('access_token_cookie')!;
    const refreshToken = session.cookies.get('refresh_token_cookie')!;
    session.cookies.delete('access_token_cookie');
    const out = await session.post('/v1/auth/logout?type=cookie', undefined, {
      csrf: false,
      headers: { 'x-csrf-token': session.cookies.get('csrf_refresh_token')! },
    });
    expect(out.status).toBe(200);
    expect(await check(access)).toBe(401);
    expect((await refresh(refreshToken)).status).toBe(401);
  });

  it('revokes the access tokens refreshed from the session too', async () => {
    const { access, refresh: refreshToken } = await tokensOf('refreshed');
    const renewed = await refresh(refreshToken);
    expect(renewed.status).toBe(200);
    expect(await check(renewed.access!)).toBe(200);
    expect(await logout(bearer(access))).toBe(200);
    expect(await check(renewed.access!)).toBe(401);
  });

  it('ends only its own session: another login of the same account goes on', async () => {
    const laptop = await tokensOf('two-logins');
    const phone = await tokensOf('two-logins');
    expect(await logout(bearer(laptop.access))).toBe(200);
    expect(await check(phone.access)).toBe(200);
    expect((await refresh(phone.refresh)).status).toBe(200);
    expect((await refresh(laptop.refresh)).status).toBe(401);
  });
});
