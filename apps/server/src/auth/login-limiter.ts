/**
 * Failed-login counting per username and per client address in a sliding window: past the limit,
 * logins are refused with 429 and Retry-After until the oldest failure leaves the window.
 * In memory: one API process; behind several replicas each counts its own share.
 */
const WINDOW_MS = 15 * 60 * 1000;

export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly perUsername: number, private readonly perIp: number) {}

  /** Seconds to wait before another attempt, or 0 when one is allowed now. */
  retryAfter(username: string, ip: string, now = Date.now()): number {
    const wait = (key: string, limit: number) => {
      const times = this.recent(key, now);
      return times.length >= limit ? Math.ceil((times[0] + WINDOW_MS - now) / 1000) : 0;
    };
    return Math.max(wait(`u:${username.toLowerCase()}`, this.perUsername), wait(`ip:${ip}`, this.perIp));
  }

  recordFailure(username: string, ip: string, now = Date.now()): void {
    for (const key of [`u:${username.toLowerCase()}`, `ip:${ip}`]) {
      const times = this.recent(key, now);
      times.push(now);
      this.failures.set(key, times);
    }
  }

  recordSuccess(username: string): void {
    this.failures.delete(`u:${username.toLowerCase()}`);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
  }
}
