import type { Socket } from 'node:net';

import type { FastifyInstance, FastifyRequest } from 'fastify';

import { tooManyRequests } from './errors.ts';

/**
 * Bounds on what anyone, signed in or not, can make the server hold (issue #49, ADR 0060).
 *
 * Node parses every request of a pipelined write at once and runs each handler, so a client that sends
 * hundreds of 1,000-locus listings in one write and never reads made the server build and buffer every
 * answer (2.3 GB). Here a request counts as in flight from its arrival until its answer has been handed
 * to the operating system (the response's `close`); past `perConnection` on its socket, or `perAddress`
 * over all connections from its client address, it is answered at once with a small 429 instead of
 * being run. A client that never reads thus holds at most `perConnection` built answers per socket, and
 * Node stops reading a socket whose queued answers pass its high-water mark, so the cheap 429s are
 * bounded too.
 *
 * Expensive reads (a search, or a page over `largePage` items) also draw from a token bucket per client
 * address: `burst` at once, refilled at `perMinute`. A read that finds the bucket empty waits for its
 * token when that comes within `expensiveReadMaxWaitS` (it holds nothing while it waits, and is counted
 * in flight), else it is a 429 whose Retry-After is the wait: the published client follows a search's
 * `links.next` page after page without pausing and fails on any 4xx, so a long search is slowed to the
 * rate rather than cut off, while a flood still meets 429s.
 */
export interface EdgeLimits {
  perConnection: number;
  perAddress: number;
  expensiveReadsPerMinute: number;
  expensiveReadBurst: number;
  /** The longest an expensive read waits for its token before it is refused instead. */
  expensiveReadMaxWaitS: number;
  largePage: number;
}

/** Counts and what was refused, for tests and logs. */
export interface EdgeLimitStats {
  /** The most requests that were in flight on one connection at any moment. */
  maxInFlightPerConnection: number;
  refusedInFlight: number;
  refusedExpensive: number;
}

/** Query parameters that make a read expensive: a search document, or the page size above `largePage`. */
const PAGE_SIZE_PARAMETERS = ['page[limit]', 'limit'];

const statsOfApp = new WeakMap<FastifyInstance, EdgeLimitStats>();

/** The counts of `app`'s edge limits (tests read them). */
export function edgeLimitStats(app: FastifyInstance): EdgeLimitStats | undefined {
  return statsOfApp.get(app);
}

export function registerEdgeLimits(app: FastifyInstance, limits: EdgeLimits): EdgeLimitStats {
  const stats: EdgeLimitStats = { maxInFlightPerConnection: 0, refusedInFlight: 0, refusedExpensive: 0 };
  statsOfApp.set(app, stats);
  const perSocket = new WeakMap<Socket, number>();
  const perAddress = new Map<string, number>();
  const buckets = new TokenBuckets(limits.expensiveReadBurst, limits.expensiveReadsPerMinute / 60);

  // onRequest runs as each request is parsed, before its body is read or its handler runs: a pipelined
  // flood is counted request by request while the first ones are still being answered.
  app.addHook('onRequest', async (request, reply) => {
    const socket = request.raw.socket;
    const address = request.ip;
    const onSocket = perSocket.get(socket) ?? 0;
    const fromAddress = perAddress.get(address) ?? 0;
    if (onSocket >= limits.perConnection) {
      stats.refusedInFlight += 1;
      throw tooManyRequests(
        `Too many requests in flight on this connection: at most ${limits.perConnection} at once; read the answers before sending more`,
        1,
      );
    }
    if (fromAddress >= limits.perAddress) {
      stats.refusedInFlight += 1;
      throw tooManyRequests(`Too many requests in flight from your address: at most ${limits.perAddress} at once`, 1);
    }
    perSocket.set(socket, onSocket + 1);
    perAddress.set(address, fromAddress + 1);
    stats.maxInFlightPerConnection = Math.max(stats.maxInFlightPerConnection, onSocket + 1);
    // `close` comes once the answer is written out, or when the client went away: either way it is done.
    reply.raw.once('close', () => {
      perSocket.set(socket, (perSocket.get(socket) ?? 1) - 1);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    if (isExpensiveRead(request, limits.largePage)) {
      const turn = buckets.take(address, Date.now(), limits.expensiveReadMaxWaitS * 1000);
      if (turn.retryAfterS !== undefined) {
        const wait = turn.retryAfterS;
        stats.refusedExpensive += 1;
        throw tooManyRequests(
          `Too many searches and large pages from your address: at most ${limits.expensiveReadBurst} at once and ` +
            `${limits.expensiveReadsPerMinute} a minute; try again in ${wait} second${wait === 1 ? '' : 's'}`,
          wait,
        );
      }
      if (turn.waitMs > 0) await new Promise((resolve) => setTimeout(resolve, turn.waitMs));
    }
  });
  return stats;
}

function isExpensiveRead(request: FastifyRequest, largePage: number): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const query = request.query as Record<string, unknown> | undefined;
  if (!query) return false;
  for (const [name, value] of Object.entries(query)) {
    if (name.startsWith('elasticsearch_query') && value !== '') return true;
    if (PAGE_SIZE_PARAMETERS.includes(name) && Number(value) > largePage) return true;
  }
  return false;
}

/** Buckets kept at most; past it, the full ones (clients that have been quiet) are forgotten. */
const MAX_BUCKETS = 10_000;

/** One token bucket per key: `capacity` tokens, refilled at `perSecond`. */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
  ) {}

  /**
   * Takes a token for `key` at `now` (ms). One that is there, or comes within `maxWaitMs`, is taken (the
   * bucket goes into debt for a later one): `waitMs` says how long until it is due. Otherwise nothing is
   * taken and `retryAfterS` is the whole seconds until a token would be there.
   */
  take(key: string, now: number, maxWaitMs = 0): { waitMs: number; retryAfterS?: number } {
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    const waitMs = bucket.tokens >= 1 ? 0 : ((1 - bucket.tokens) / this.perSecond) * 1000;
    this.remember(key, bucket, now);
    if (waitMs > maxWaitMs) return { waitMs, retryAfterS: Math.max(1, Math.ceil(waitMs / 1000)) };
    bucket.tokens -= 1;
    return { waitMs };
  }

  private remember(key: string, bucket: { tokens: number; at: number }, now: number): void {
    this.buckets.set(key, bucket);
    if (this.buckets.size <= MAX_BUCKETS) return;
    for (const [other, b] of this.buckets) {
      if (b.tokens + ((now - b.at) / 1000) * this.perSecond >= this.capacity) this.buckets.delete(other);
    }
    // Still too many (a flood from many addresses): forget the oldest, which only gives them a fresh bucket.
    for (const other of this.buckets.keys()) {
      if (this.buckets.size <= MAX_BUCKETS) break;
      this.buckets.delete(other);
    }
  }
}
