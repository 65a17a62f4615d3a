import { describe, expect, it } from 'vitest';

import { RegistrationLimiter } from './registration-limiter.ts';

// The throttle with its own clock (the `now` arguments): waits in seconds, without waiting for them.
const T0 = 1_700_000_000_000;
const minutes = (m: number) => T0 + m * 60_000;

describe('registration throttle', () => {
  it('lets a burst of perAddressPerHour through from one address, then one every 60/perHour minutes', () => {
    const limiter = new RegistrationLimiter({ perAddressPerHour: 6, perHour: 1000 });
    for (let i = 0; i < 6; i++) expect(limiter.attempt('203.0.113.5', T0)).toBe(0);
    // Empty: the next token comes in 10 minutes.
    expect(limiter.attempt('203.0.113.5', T0)).toBe(600);
    expect(limiter.attempt('203.0.113.5', minutes(4))).toBe(360);
    expect(limiter.attempt('203.0.113.5', minutes(10))).toBe(0);
    expect(limiter.attempt('203.0.113.5', minutes(10))).toBe(600);
    // Other addresses have their own bucket; an IPv6 /64 is one address.
    expect(limiter.attempt('198.51.100.7', T0)).toBe(0);
    for (let i = 0; i < 6; i++) expect(limiter.attempt(`2001:db8:1:2::${i + 1}`, T0)).toBe(0);
    expect(limiter.attempt('2001:db8:1:2:ffff::9', T0)).toBeGreaterThan(0);
    expect(limiter.attempt('2001:db8:1:3::1', T0)).toBe(0);
  });

  it('bounds what many addresses register together', () => {
    const limiter = new RegistrationLimiter({ perAddressPerHour: 5, perHour: 20 });
    for (let i = 0; i < 20; i++) expect(limiter.attempt(`192.0.2.${i}`, T0)).toBe(0);
    // A fresh address still waits for the overall bucket: one per 3 minutes.
    expect(limiter.attempt('192.0.2.200', T0)).toBe(180);
    expect(limiter.attempt('192.0.2.200', minutes(3))).toBe(0);
  });

  it('gives back a registration that created no account, and never holds more than the hour allows', () => {
    const limiter = new RegistrationLimiter({ perAddressPerHour: 2, perHour: 100 });
    for (let i = 0; i < 10; i++) {
      expect(limiter.attempt('203.0.113.9', T0)).toBe(0);
      limiter.refund('203.0.113.9', T0);
    }
    limiter.refund('203.0.113.9', T0);
    expect(limiter.attempt('203.0.113.9', T0)).toBe(0);
    expect(limiter.attempt('203.0.113.9', T0)).toBe(0);
    expect(limiter.attempt('203.0.113.9', T0)).toBe(1800);
  });

  it('forgets the least recently used buckets past its bound', () => {
    const limiter = new RegistrationLimiter({ perAddressPerHour: 1, perHour: 1_000_000 }, 3);
    for (let i = 0; i < 5; i++) expect(limiter.attempt(`192.0.2.${i}`, T0)).toBe(0);
    // 192.0.2.0's bucket went (a full bucket is the same as none); 192.0.2.4's is still empty.
    expect(limiter.attempt('192.0.2.0', T0)).toBe(0);
    expect(limiter.attempt('192.0.2.4', T0)).toBe(3600);
  });
});
