import { clientKey } from './login-limiter.ts';

/**
 * Registration throttling (ADR 0061): every per-user limit on sandbox work (dry runs, backtests) is only as
 * good as the cost of a new user, so accounts are rationed per client address and for everyone together.
 *
 * Each is a token bucket that holds `perHour` registrations and refills evenly over the hour: a household
 * or a classroom behind one address can register a few at once, a script gets one every 60/perHour minutes.
 * The overall bucket bounds what many addresses (a botnet, an IPv6 range beyond one /64) can create. A
 * registration is charged before its checks run, so a burst of concurrent requests cannot all slip through
 * while the first password is hashed; a refused one (bad field, taken name) is given back.
 *
 * In memory, like the login limiter (ADR 0015): one API process; a restart starts the buckets full.
 */
export interface RegistrationLimits {
  perAddressPerHour: number;
  perHour: number;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date, in ms. */
  at: number;
}

const HOUR_MS = 60 * 60 * 1000;
/** Buckets kept at most: the least recently used go first (a full bucket is the same as none). */
const MAX_BUCKETS = 100_000;
const OVERALL = 'overall';

export class RegistrationLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limits: RegistrationLimits,
    private readonly maxBuckets = MAX_BUCKETS,
  ) {}

  /** Seconds to wait before registering from `address` (refuse: 429 with Retry-After), or 0: charged, go ahead. */
  attempt(address: string, now = Date.now()): number {
    const keys = this.keysOf(address);
    const wait = Math.max(...keys.map(([key, capacity]) => this.waitMs(key, capacity, now)));
    if (wait > 0) return Math.ceil(wait / 1000);
    for (const [key, capacity] of keys) this.take(key, capacity, now);
    return 0;
  }

  /** A registration that created no account (refused as invalid or taken) costs nothing. */
  refund(address: string, now = Date.now()): void {
    for (const [key, capacity] of this.keysOf(address)) {
      const bucket = this.buckets.get(key);
      if (bucket) this.buckets.set(key, { tokens: Math.min(capacity, this.level(bucket, capacity, now) + 1), at: now });
    }
  }

  /** The buckets a registration from `address` draws on, with their capacities. */
  private keysOf(address: string): Array<[string, number]> {
    return [
      [`a:${clientKey(address)}`, this.limits.perAddressPerHour],
      [OVERALL, this.limits.perHour],
    ];
  }

  private level(bucket: Bucket, capacity: number, now: number): number {
    return Math.min(capacity, bucket.tokens + ((now - bucket.at) * capacity) / HOUR_MS);
  }

  private waitMs(key: string, capacity: number, now: number): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return 0;
    const level = this.level(bucket, capacity, now);
    return level >= 1 ? 0 : ((1 - level) * HOUR_MS) / capacity;
  }

  private take(key: string, capacity: number, now: number): void {
    const previous = this.buckets.get(key);
    const level = previous ? this.level(previous, capacity, now) : capacity;
    // Re-inserted so that the map stays in order of last use: the oldest buckets are dropped first.
    this.buckets.delete(key);
    this.buckets.set(key, { tokens: level - 1, at: now });
    while (this.buckets.size > this.maxBuckets) {
      const oldest = this.buckets.keys().next().value as string;
      this.buckets.delete(oldest);
    }
  }
}
