import http from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '../../auth/passwords.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// Login throttling over real HTTP from several client addresses (the loopback block 127.0.0.0/8: each
// 127.x.y.z is another client to the server). Failures count per (username, address) and per address, so
// nobody can lock an account's owner out; the delays themselves are in auth/login-limiter.test.ts.
let server: TestServer;
// A server behind a reverse proxy at 127.0.9.9 (ANTARES_TRUSTED_PROXIES).
let proxied: TestServer;
const PROXY = '127.0.9.9';
const PASSWORD = 'Galaxy2026';

async function withUsers(test: TestServer): Promise<TestServer> {
  const password_hash = await hashPassword(PASSWORD);
  for (const username of ['owner', 'owner2', 'owner3']) {
    await test.repos.users.create({ username, email: `${username}@example.org`, name: username, password_hash });
  }
  return test;
}

beforeAll(async () => {
  server = await withUsers(await startTestServer({ config: { loginLimitPerPair: 5, loginLimitPerIp: 12 } }));
  proxied = await withUsers(await startTestServer({ config: { loginLimitPerPair: 5, loginLimitPerIp: 12, trustedProxies: [PROXY] } }));
}, 120_000);
afterAll(async () => {
  await server?.close();
  await proxied?.close();
});

/** A login sent from the loopback address `from` (to `target`, with an X-Forwarded-For header if given). */
function login(
  username: string,
  password: string,
  from: string,
  options: { target?: TestServer; forwardedFor?: string } = {},
): Promise<{ status: number; body: any; retryAfter?: string }> {
  const { hostname, port } = new URL((options.target ?? server).url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: hostname,
        port,
        method: 'POST',
        path: '/v1/auth/login?type=token',
        localAddress: from,
        headers: { 'content-type': 'application/json', ...(options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {}) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(text),
            retryAfter: response.headers['retry-after'] as string | undefined,
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ username, password }));
  });
}

describe('login throttling', () => {
  it('slows a (username, address) pair after 5 failures with 429 and Retry-After, even for the right password', async () => {
    for (let i = 0; i < 5; i++) expect((await login('owner', 'Wrong1234', '127.0.1.1')).status).toBe(401);
    const refused = await login('owner', PASSWORD, '127.0.1.1');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.body.errors[0]).toMatchObject({ status: '429', title: 'Too Many Requests' });
    expect(refused.body.errors[0].detail).toMatch(/^Too many failed logins; try again in \d+ seconds?$/);
  });

  it('lets the owner in from a fresh address after any number of failures from other addresses', async () => {
    let refusals = 0;
    for (let a = 0; a < 8; a++) {
      for (let i = 0; i < 8; i++) if ((await login('owner2', 'Wrong1234', `127.0.2.${a + 1}`)).status === 429) refusals++;
    }
    expect(refusals).toBeGreaterThan(0);
    const fresh = await login('owner2', PASSWORD, '127.0.2.200');
    expect(fresh.status).toBe(200);
    expect(fresh.body.user.username).toBe('owner2');
  });

  it('gives an address a larger budget across usernames, then slows it for every username', async () => {
    for (let i = 0; i < 12; i++) expect((await login(`guess-${i}`, 'Wrong1234', '127.0.3.1')).status).toBe(401);
    const blocked = await login('owner3', PASSWORD, '127.0.3.1');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.retryAfter)).toBeGreaterThanOrEqual(1);
    expect((await login('owner3', PASSWORD, '127.0.3.2')).status).toBe(200);
  });

  it('starts a pair afresh after a successful login', async () => {
    for (let i = 0; i < 4; i++) expect((await login('owner3', 'Wrong1234', '127.0.4.1')).status).toBe(401);
    expect((await login('owner3', PASSWORD, '127.0.4.1')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login('owner3', 'Wrong1234', '127.0.4.1')).status).toBe(401);
    expect((await login('owner3', 'Wrong1234', '127.0.4.1')).status).toBe(429);
  });
});

describe('login throttling behind a trusted reverse proxy', () => {
  it("counts failures per client address the proxy names in X-Forwarded-For, so one client cannot slow the proxy's others", async () => {
    const via = (forwardedFor: string) => ({ target: proxied, forwardedFor });
    for (let i = 0; i < 5; i++) expect((await login('owner', 'Wrong1234', PROXY, via('203.0.113.1'))).status).toBe(401);
    expect((await login('owner', PASSWORD, PROXY, via('203.0.113.1'))).status).toBe(429);
    expect((await login('owner', PASSWORD, PROXY, via('203.0.113.2'))).status).toBe(200);
  });

  it('ignores X-Forwarded-For from any other address: a client cannot pick a fresh address by sending the header', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await login('owner2', 'Wrong1234', '127.0.9.10', { target: proxied, forwardedFor: `198.51.100.${i}` })).status).toBe(401);
    }
    expect((await login('owner2', PASSWORD, '127.0.9.10', { target: proxied, forwardedFor: '198.51.100.99' })).status).toBe(429);
    // Without a trusted proxy configured, the header counts for nothing either.
    for (let i = 0; i < 5; i++) {
      expect((await login('owner', 'Wrong1234', '127.0.9.11', { forwardedFor: `198.51.100.${i}` })).status).toBe(401);
    }
    expect((await login('owner', PASSWORD, '127.0.9.11', { forwardedFor: '198.51.100.99' })).status).toBe(429);
  });
});
