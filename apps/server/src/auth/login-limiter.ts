import net from 'node:net';

/**
 * Failed-login throttling that slows guessing without letting anyone lock an account's owner out (ADR 0015).
 *
 * Failures are counted per (username, client address) pair and per client address, never per username
 * alone: failures from other addresses cost the owner nothing. Past a free budget (a few on a pair, more on
 * an address, which may try many usernames) each further attempt must wait a delay that doubles with every
 * failure (1 s, 2 s, 4 s, ...) up to a cap; until then it is refused (429 with Retry-After) without the
 * password being checked. A successful login clears its pair. A count is forgotten after a quiet hour
 * (or twice the cap, if longer).
 *
 * In memory (ADR 0015): no database write per guess; one API process; a restart starts the counts afresh.
 */
export interface LoginLimits {
  /** Failures allowed on a (username, address) pair before delays start. */
  perPair: number;
  /** Failures allowed from one address (over every username) before delays start. */
  perAddress: number;
  /** The longest delay, in seconds. */
  maxDelaySeconds: number;
}

interface Tally {
  failures: number;
  /** When the last failure (or attempt in progress) was counted, in ms. */
  last: number;
}

const QUIET_MS = 60 * 60 * 1000;
/** Counts kept at most: the oldest go first, so spraying usernames cannot grow the map without bound. */
const MAX_TALLIES = 100_000;

export class LoginLimiter {
  private readonly tallies = new Map<string, Tally>();
  private readonly forgetMs: number;

  constructor(
    private readonly limits: LoginLimits,
    private readonly maxTallies = MAX_TALLIES,
  ) {
    this.forgetMs = Math.max(QUIET_MS, 2 * limits.maxDelaySeconds * 1000);
  }

  /**
   * Seconds the caller must still wait (refuse the attempt), or 0: the attempt may go ahead, and it is
   * counted as a failure at once, so that concurrent guesses cannot all slip through while the first
   * password is being checked; `succeeded` takes it back.
   */
  attempt(username: string, address: string, now = Date.now()): number {
    const keys = keysOf(username, address);
    const wait = Math.max(this.wait(keys.pair, this.limits.perPair, now), this.wait(keys.address, this.limits.perAddress, now));
    if (wait > 0) return wait;
    this.count(keys.pair, now);
    this.count(keys.address, now);
    return 0;
  }

  /** The right password: the pair starts afresh, and the address's count loses the attempt it was charged. */
  succeeded(username: string, address: string): void {
    const keys = keysOf(username, address);
    this.tallies.delete(keys.pair);
    const tally = this.tallies.get(keys.address);
    if (tally) tally.failures = Math.max(0, tally.failures - 1);
  }

  private wait(key: string, free: number, now: number): number {
    const tally = this.tallies.get(key);
    if (!tally || now - tally.last > this.forgetMs || tally.failures < free) return 0;
    const delaySeconds = Math.min(this.limits.maxDelaySeconds, 2 ** Math.min(tally.failures - free, 40));
    const remaining = tally.last + delaySeconds * 1000 - now;
    return remaining > 0 ? Math.ceil(remaining / 1000) : 0;
  }

  private count(key: string, now: number): void {
    const previous = this.tallies.get(key);
    const failures = previous && now - previous.last <= this.forgetMs ? previous.failures + 1 : 1;
    // Re-inserted so that the map stays in order of last use: the oldest counts are dropped first.
    this.tallies.delete(key);
    this.tallies.set(key, { failures, last: now });
    for (const [oldest, tally] of this.tallies) {
      if (this.tallies.size <= this.maxTallies && now - tally.last <= this.forgetMs) break;
      this.tallies.delete(oldest);
    }
  }
}

/**
 * Counting keys. Usernames are unique regardless of case, so counted that way; an IPv6 client is counted
 * by its /64 (one subscriber's block: its addresses cost an attacker nothing), an IPv4-mapped one as IPv4.
 */
function keysOf(username: string, address: string): { pair: string; address: string } {
  const client = clientKey(address);
  return { pair: `p:${client}\n${username.toLowerCase()}`, address: `a:${client}` };
}

export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (net.isIPv6(address)) return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
  return address;
}

function expandIpv6(address: string): string[] {
  const [head, tail = ''] = address.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return groups.map((group) => (parseInt(group, 16) || 0).toString(16));
}
