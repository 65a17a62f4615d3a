import net from 'node:net';

import { compileLocusSearch, SEARCH_MAX_CLAUSES, SEARCH_MAX_CONES, SEARCH_MAX_DEPTH, SearchQueryError } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { loadConfig } from './config.ts';
import { edgeLimitStats } from './edge-limits.ts';
import { answerProblem, closeRawConnections, type RawAnswer, readAnswers, sendBytes, sendRaw } from './fuzz/raw-http.ts';
import { enableTagFilter } from './testing/tag-filter.ts';
import { startTestServer, type TestServer } from './testing/test-server.ts';

// The HTTP edge (issue #49, ADR 0060): requests in flight per connection and per address, the per-address
// bucket of expensive reads, header timeouts, and the search document's nesting and clause limits.
let server: TestServer;
const defaults = loadConfig({}).edgeLimits;
// A bucket that never refills within a test run: 3 expensive reads per address, then 429s.
const BURST = 3;

beforeAll(async () => {
  server = await startTestServer({
    ingest: ['ztf-avro-alert/samples'],
    config: {
      edgeLimits: { ...defaults, perConnection: 2, perAddress: 3, expensiveReadBurst: BURST, expensiveReadsPerMinute: 1 },
      httpTimeouts: { ...loadConfig({}).httpTimeouts, headersMs: 1000 },
    },
  });
  await enableTagFilter(server.repos, 'edge_stream', true, 'edge-owner');
}, 120_000);
afterAll(async () => {
  closeRawConnections();
  await server?.close();
});

const search = (query: unknown) => `/v1/loci?elasticsearch_query%5Blocus_listing%5D=${encodeURIComponent(JSON.stringify({ query }))}`;
const get = (path: string, from?: string) => sendRaw(server.url, { method: 'GET', path, ...(from ? { from } : {}) });
const detailOf = (answer: RawAnswer): string => JSON.parse(answer.text).errors[0].detail;

describe('requests in flight', () => {
  it('runs at most 2 of 200 pipelined listings on one connection that is not read, and still answers others', async () => {
    const { port } = new URL(server.url);
    const flood = net.connect({ port: Number(port), host: '127.0.0.1', localAddress: '127.0.0.4' });
    flood.pause();
    await new Promise((resolve) => flood.once('connect', resolve));
    const request = 'GET /v1/loci?page%5Blimit%5D=20 HTTP/1.1\r\nHost: antares\r\n\r\n';
    flood.write(request.repeat(200));
    const stats = edgeLimitStats(server.app)!;
    await vi.waitFor(() => expect(stats.refusedInFlight).toBeGreaterThan(0), { timeout: 20_000 });
    // Another client, and another connection from the flooding address, are answered while it waits.
    expect((await get('/v1/loci?page%5Blimit%5D=1', '127.0.0.5')).status).toBe(200);
    expect((await get('/v1/loci?page%5Blimit%5D=1', '127.0.0.4')).status).toBe(200);
    expect(stats.maxInFlightPerConnection).toBeLessThanOrEqual(2);
    // Read at last: every request got an answer in order, the first ones served, the flood refused.
    const answers = await readAnswers(flood, 200);
    flood.destroy();
    expect(answers).toHaveLength(200);
    expect(answers.slice(0, 2).map((a) => a.status)).toEqual([200, 200]);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
    expect(refused[0].retryAfter).toBe('1');
    expect(answerProblem({ status: 429, contentType: 'application/json', text: refused[0].body })).toBeUndefined();
    expect(JSON.parse(refused[0].body).errors[0].detail).toMatch(/in flight on this connection: at most 2 at once/);
    expect(stats.maxInFlightPerConnection).toBeLessThanOrEqual(2);
  }, 60_000);

  it('refuses a client address more than 3 requests at once over all its connections, not others', async () => {
    const streams = Array.from({ length: 3 }, () => new AbortController());
    const open = await Promise.all(
      streams.map(async (controller) => {
        const response = await fetch(`${server.url}/v1/streams/edge_stream/events`, { signal: controller.signal });
        expect(response.headers.get('content-type')).toContain('text/event-stream');
        return response;
      }),
    );
    expect(open).toHaveLength(3);
    // fetch() sends from 127.0.0.1: its three event streams are in flight, a fourth request is one too many.
    const refused = await get('/v1/loci?page%5Blimit%5D=1');
    expect(refused.status).toBe(429);
    expect(answerProblem(refused)).toBeUndefined();
    expect(detailOf(refused)).toMatch(/in flight from your address: at most 3 at once/);
    expect((await get('/v1/loci?page%5Blimit%5D=1', '127.0.0.6')).status).toBe(200);
    for (const controller of streams) controller.abort();
    await vi.waitFor(async () => expect((await get('/v1/loci?page%5Blimit%5D=1')).status).toBe(200), { timeout: 20_000 });
  }, 60_000);
});

describe('expensive reads', () => {
  it(`answers a burst of searches and large pages past ${BURST} from one address with 429 and Retry-After`, async () => {
    const from = '127.0.0.7';
    const reads = [search({ match_all: {} }), '/v1/loci?page%5Blimit%5D=500', search({ term: { tags: 'x' } })];
    for (const path of reads) expect((await get(path, from)).status).toBe(200);
    const answer = await sendRaw(server.url, { method: 'GET', path: '/v1/loci?page%5Blimit%5D=1000', from });
    expect(answer.status).toBe(429);
    expect(answerProblem(answer)).toBeUndefined();
    expect(detailOf(answer)).toMatch(
      /Too many searches and large pages from your address: at most 3 at once and 1 a minute; try again in \d+ seconds?/,
    );
    const raw = await sendBytes(server.url, 'GET /v1/loci?page%5Blimit%5D=1000 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    // sendBytes goes from 127.0.0.1, whose bucket is full: the same read is served there.
    expect(raw.status).toBe(200);
    // A small page is no expensive read: still served.
    expect((await get('/v1/loci?page%5Blimit%5D=10', from)).status).toBe(200);
    const retry = await new Promise<string | undefined>((resolve, reject) => {
      const socket = net.connect({ port: Number(new URL(server.url).port), host: '127.0.0.1', localAddress: from });
      socket.write(`GET ${search({ match_all: {} })} HTTP/1.1\r\nHost: a\r\n\r\n`);
      readAnswers(socket, 1).then((answers) => {
        socket.destroy();
        expect(answers[0].status).toBe(429);
        resolve(answers[0].retryAfter);
      }, reject);
    });
    expect(Number(retry)).toBeGreaterThanOrEqual(1);
    expect(Number(retry)).toBeLessThanOrEqual(60);
  });
});

describe('expensive reads paged through in sequence', () => {
  it('slows a client that pages through a search faster than the rate instead of refusing it', async () => {
    // 2 at once, then one every half second; a read waits for its turn up to 5 s: the published client
    // follows links.next without pausing and fails on any 4xx.
    const slow = await startTestServer({
      config: { edgeLimits: { ...defaults, expensiveReadBurst: 2, expensiveReadsPerMinute: 120, expensiveReadMaxWaitS: 5 } },
    });
    try {
      const from = '127.0.0.9';
      const statuses: number[] = [];
      for (let page = 0; page < 5; page++) {
        const answer = await sendRaw(slow.url, { method: 'GET', path: `${search({ match_all: {} })}&page%5Boffset%5D=${page}`, from });
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect(edgeLimitStats(slow.app)?.refusedExpensive).toBe(0);
    } finally {
      await slow.close();
    }
  });
});

describe('timeouts', () => {
  it('answers headers that never finish arriving with 408 and closes the connection', async () => {
    const answer = await sendBytes(server.url, 'GET /v1/loci HTTP/1.1\r\nHost: a\r\nX-Slow: ');
    expect(answer.status).toBe(408);
    expect(answerProblem(answer)).toBeUndefined();
  });
});

describe('search document limits', () => {
  // Each search from an address of its own: the expensive-read bucket (3 per address) stays out of the way.
  let next = 0;
  const get = (path: string) => sendRaw(server.url, { method: 'GET', path, from: `127.0.1.${++next}` });
  const nested = (depth: number): unknown => {
    let query: unknown = { match_all: {} };
    for (let i = 1; i < depth; i++) query = { bool: { must: [query] } };
    return query;
  };

  it(`takes clauses nested ${SEARCH_MAX_DEPTH} deep and refuses one level more with a 400 naming the limit`, async () => {
    expect((await get(search(nested(SEARCH_MAX_DEPTH)))).status).toBe(200);
    const answer = await get(search(nested(SEARCH_MAX_DEPTH + 1)));
    expect(answer.status).toBe(400);
    expect(answerProblem(answer)).toBeUndefined();
    expect(detailOf(answer)).toBe(
      `The search nests clauses more than ${SEARCH_MAX_DEPTH} levels deep; at most ${SEARCH_MAX_DEPTH} levels are allowed`,
    );
  });

  it(`takes ${SEARCH_MAX_CLAUSES} clauses and refuses more with a 400 naming the limit`, async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `L${i}`);
    // The terms clause itself and each value beyond its first: 1024 in all.
    expect((await get(search({ terms: { locus_id: ids(SEARCH_MAX_CLAUSES) } }))).status).toBe(200);
    const answer = await get(search({ bool: { filter: [{ terms: { locus_id: ids(SEARCH_MAX_CLAUSES) } }] } }));
    expect(answer.status).toBe(400);
    expect(detailOf(answer)).toMatch(
      new RegExp(`^The search has more than ${SEARCH_MAX_CLAUSES} clauses .*at most ${SEARCH_MAX_CLAUSES} are allowed$`),
    );
    const cone = { sky_distance: { distance: '1 degree', htm16: { center: '10 20' } } };
    expect((await get(search({ bool: { should: Array(SEARCH_MAX_CONES).fill(cone) } }))).status).toBe(200);
    const cones = await get(search({ bool: { should: Array(SEARCH_MAX_CONES + 1).fill(cone) } }));
    expect(cones.status).toBe(400);
    expect(detailOf(cones)).toBe(
      `The search has more than ${SEARCH_MAX_CONES} sky_distance clauses; at most ${SEARCH_MAX_CONES} are allowed`,
    );
  });

  it('refuses a document nested 100,000 deep (a backtest body can be that big) without overflowing the stack', () => {
    let query: unknown = { match_all: {} };
    for (let i = 0; i < 100_000; i++) query = { bool: { must: query } };
    expect(() => compileLocusSearch({ query })).toThrow(SearchQueryError);
    const wide = { bool: { should: Array.from({ length: 100_000 }, () => ({ match_all: {} })) } };
    expect(() => compileLocusSearch({ query: wide })).toThrow(/more than 1024 clauses/);
  });
});
