import { describe, expect, it } from 'vitest';

import { clientKey, LoginLimiter } from './login-limiter.ts';

// The throttle with its own clock (the `now` arguments): delays in seconds, without waiting for them.
const limits = { perPair: 5, perAddress: 20, maxDelaySeconds: 60 };
const T0 = 1_700_000_000_000;
const s = (seconds: number) => T0 + seconds * 1000;

/** `n` wrong passwords for `username` from `address`, each as soon as it is allowed; returns the time after the last. */
function fail(limiter: LoginLimiter, username: string, address: string, n: number, from = T0): number {
  let now = from;
  for (let i = 0; i < n; i++) {
    for (let wait = limiter.attempt(username, address, now); wait > 0; wait = limiter.attempt(username, address, now)) now += wait * 1000;
  }
  return now;
}

describe('login throttle', () => {
  it('lets the first failures on a (username, address) pair through, then doubles the wait up to the cap', () => {
    const limiter = new LoginLimiter(limits);
    for (let i = 0; i < 5; i++) expect(limiter.attempt('vera', '203.0.113.5', T0)).toBe(0);
    // After 5 failures: 1 s, then 2 s, 4 s, 8 s ... each counted from the last failure.
    const waits: number[] = [];
    let now = T0;
    for (let i = 0; i < 9; i++) {
      const wait = limiter.attempt('vera', '203.0.113.5', now);
      waits.push(wait);
      now += wait * 1000;
      expect(limiter.attempt('vera', '203.0.113.5', now)).toBe(0);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    // Refused attempts are not failures: asking again and again does not push the wait further.
    expect(limiter.attempt('vera', '203.0.113.5', now)).toBe(60);
    expect(limiter.attempt('vera', '203.0.113.5', now + 30_000)).toBe(30);
  });

  it('never locks the owner out from another address, however many failures come from elsewhere', () => {
    const limiter = new LoginLimiter(limits);
    for (let a = 0; a < 50; a++) fail(limiter, 'vera', `198.51.100.${a}`, 30);
    expect(limiter.attempt('vera', '192.0.2.77', s(1))).toBe(0);
    limiter.succeeded('vera', '192.0.2.77');
    expect(limiter.attempt('vera', '192.0.2.77', s(1))).toBe(0);
  });

  it('gives an address a larger budget over every username, then delays it for all of them', () => {
    const limiter = new LoginLimiter(limits);
    let now = T0;
    for (let i = 0; i < 20; i++) now = fail(limiter, `guess-${i}`, '203.0.113.9', 1, now);
    // 20 failures over 20 usernames: no pair is past its budget, the address is.
    expect(limiter.attempt('someone-else', '203.0.113.9', now)).toBe(1);
    expect(limiter.attempt('someone-else', '203.0.113.10', now)).toBe(0);
  });

  it('starts a pair afresh after the right password, and takes back the attempt from the address count', () => {
    const limiter = new LoginLimiter(limits);
    const now = fail(limiter, 'vera', '203.0.113.5', 5);
    expect(limiter.attempt('vera', '203.0.113.5', now)).toBe(1);
    expect(limiter.attempt('vera', '203.0.113.5', now + 1000)).toBe(0);
    limiter.succeeded('vera', '203.0.113.5');
    for (let i = 0; i < 5; i++) expect(limiter.attempt('vera', '203.0.113.5', now + 1000)).toBe(0);
    expect(limiter.attempt('vera', '203.0.113.5', now + 1000)).toBe(1);
  });

  it('counts usernames regardless of case, and forgets a pair after a quiet hour', () => {
    const limiter = new LoginLimiter(limits);
    fail(limiter, 'Vera', '203.0.113.5', 5);
    expect(limiter.attempt('VERA', '203.0.113.5', T0)).toBe(1);
    expect(limiter.attempt('vera', '203.0.113.5', s(3601))).toBe(0);
  });

  it('keeps a bounded number of counts, dropping the oldest', () => {
    const limiter = new LoginLimiter(limits, 100);
    fail(limiter, 'vera', '203.0.113.5', 5);
    expect(limiter.attempt('vera', '203.0.113.5', T0)).toBe(1);
    for (let i = 0; i < 200; i++) limiter.attempt(`spray-${i}`, `198.51.100.${i % 250}`, s(1));
    expect(limiter.attempt('vera', '203.0.113.5', s(1) - 500)).toBe(0);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped one as IPv4', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:db8:1:2:ffff:1:2:3'));
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'));
    expect(clientKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientKey('192.0.2.1')).toBe('192.0.2.1');
    const limiter = new LoginLimiter(limits);
    fail(limiter, 'vera', '2001:db8:1:2::1', 5);
    expect(limiter.attempt('vera', '2001:db8:1:2::beef', T0)).toBe(1);
  });
});
