import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Caller, FuzzServer } from './fuzz-server.ts';
import { PROTOTYPE_NAMES } from './hostile-inputs.ts';
import { answerProblem, type RawAnswer, sendBytes, sendPipelined, sendRaw } from './raw-http.ts';

// The inputs that once answered 500 or a non-JSON:API error (issue 16), and their neighbours, each with
// the answer it must get now: one row per input, so a regression names itself.
interface Case {
  name: string;
  caller?: Caller;
  method?: string;
  /** In URL form; `@self` is the caller's own user id, `@locus` a real locus id. */
  path: string;
  /** JSON-encoded as it is (so "\u0000" and lone surrogates travel escaped, as a client sends them). */
  json?: unknown;
  /** A body sent as it is, with its content type. */
  raw?: { body: string; type: string };
  headers?: Record<string, string>;
  status: number;
  /** What the error's detail must say. */
  detail?: RegExp;
}

const q = (value: unknown) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));
const search = (query: unknown) => `elasticsearch_query%5Blocus_listing%5D=${q({ query })}`;
const nestedSearch = (depth: number): unknown =>
  Array.from({ length: depth - 1 }).reduce<unknown>((inner) => ({ bool: { must: [inner] } }), { match_all: {} });
const filter = (filters: unknown) => `filter=${q(filters)}`;
const NUL = /NUL character/;
const SURROGATE = /lone UTF-16 surrogate/;

const CASES: Case[] = [
  // A NUL byte reaching PostgreSQL.
  { name: 'NUL locus id', path: '/v1/loci/%00', status: 400, detail: NUL },
  { name: 'NUL thumbnail name', path: '/v1/thumbnails/%00', status: 400, detail: NUL },
  { name: 'NUL stream name', path: '/v1/streams/%00/messages', status: 400, detail: NUL },
  { name: 'NUL in a search term', path: `/v1/loci?${search({ term: { tags: '\u0000' } })}`, status: 400, detail: NUL },
  { name: 'NUL in a search field name', path: `/v1/loci?${search({ term: { 'properties.a\u0000': 1 } })}`, status: 400, detail: NUL },
  {
    name: 'NUL username at login',
    method: 'POST',
    path: '/v1/auth/login',
    json: { username: '\u0000', password: 'x' },
    status: 400,
    detail: NUL,
  },
  { name: 'NUL username at forgot', method: 'POST', path: '/v1/auth/forgot', json: { username: '\u0000' }, status: 400, detail: NUL },
  {
    name: 'NUL watch list name',
    caller: 'user',
    method: 'POST',
    path: '/v1/users/@self/watch_lists',
    status: 400,
    detail: NUL,
    json: {
      data: {
        type: 'watch_list',
        attributes: { name: '\u0000', description: 'd', objects: [{ right_ascension: 1, declination: 1, radius: 0.001 }] },
      },
    },
  },
  {
    name: 'NUL annotation locus id',
    caller: 'user',
    method: 'POST',
    path: '/v1/users/@self/locus_annotations',
    status: 400,
    detail: NUL,
    json: {
      data: {
        type: 'locus_annotation',
        attributes: { comment: 'note' },
        relationships: { locus: { data: { type: 'locus', id: '\u0000' } } },
      },
    },
  },
  { name: 'NUL in a query parameter', path: '/v1/tags?sort=%00', status: 400, detail: NUL },
  { name: 'NUL in a cookie', path: '/v1/auth/check', headers: { cookie: 'access_token_cookie=%00' }, status: 400, detail: NUL },
  { name: 'NUL in a member name', method: 'POST', path: '/v1/auth/forgot', json: { 'user\u0000name': 'a' }, status: 400, detail: NUL },
  // Lone surrogates: not Unicode text.
  {
    name: 'lone surrogate in a body',
    method: 'POST',
    path: '/v1/auth/forgot',
    json: { username: 'a\ud800' },
    status: 400,
    detail: SURROGATE,
  },
  // JSON.stringify writes a lone surrogate as the escape \udfff: the server meets it only once it parses the search.
  { name: 'lone surrogate in a search', path: `/v1/loci?${search({ term: { locus_id: '\udfff' } })}`, status: 400, detail: SURROGATE },
  { name: 'lone surrogate in a path (WTF-8)', path: '/v1/loci/%ED%A0%80', status: 400 },
  // Built-in JavaScript property names as fields.
  ...PROTOTYPE_NAMES.map((name): Case => ({
    name: `sort=${name} on /v1/tags`,
    path: `/v1/tags?sort=${name}`,
    status: 400,
    detail: /sort field/,
  })),
  {
    name: 'filter on __proto__',
    path: `/v1/announcements?${filter([{ field: '__proto__', op: 'eq', value: 1 }])}`,
    status: 400,
    detail: /Cannot filter on "__proto__"/,
  },
  {
    name: 'filter on constructor',
    path: `/v1/announcements?${filter([{ field: 'constructor', op: 'eq', value: 1 }])}`,
    status: 400,
    detail: /Cannot filter/,
  },
  {
    name: 'filter op toString',
    path: `/v1/announcements?${filter([{ field: 'id', op: 'toString', value: 1 }])}`,
    status: 400,
    detail: /Unknown filter op/,
  },
  { name: 'search on field constructor', path: `/v1/loci?${search({ term: { constructor: 1 } })}`, status: 400, detail: /Unknown field/ },
  // Search documents past the compiler's limits (issue #49): once a stack overflow or a statement of
  // more parameters than PostgreSQL takes; now a 400 naming the limit.
  { name: 'search nested 200 deep', path: `/v1/loci?${search(nestedSearch(200))}`, status: 400, detail: /at most 20 levels/ },
  {
    name: 'statistics search nested 21 deep',
    path: `/v1/loci/statistics?elasticsearch_query%5Blocus_listing_statistic%5D=${q({ query: nestedSearch(21) })}`,
    status: 400,
    detail: /at most 20 levels/,
  },
  {
    name: 'terms with 1500 values',
    path: `/v1/loci?${search({ terms: { locus_id: Array.from({ length: 1500 }, (_, i) => i) } })}`,
    status: 400,
    detail: /at most 1024 are allowed/,
  },
  {
    name: 'query_string of 600 terms',
    path: `/v1/loci?${search({ query_string: { query: 'a '.repeat(600) } })}`,
    status: 400,
    detail: /1024/,
  },
  {
    name: '40 cones',
    path: `/v1/loci?${search({ bool: { should: Array(40).fill({ sky_distance: { distance: '1 degree', htm16: { center: '1 2' } } }) } })}`,
    status: 400,
    detail: /at most 16 are allowed/,
  },
  {
    name: 'range operator __proto__',
    path: `/v1/loci?elasticsearch_query%5Blocus_listing%5D=${q('{"query":{"range":{"ra":{"__proto__":1}}}}')}`,
    status: 400,
    detail: /range operator "__proto__"/,
  },
  { name: 'sort on properties.constructor is a property path', path: '/v1/loci?sort=properties.constructor', status: 200 },
  // Numbers too large for their column.
  {
    name: 'range gte 1e308 on num_mag_values',
    path: `/v1/loci?${search({ range: { 'properties.num_mag_values': { gte: 1e308 } } })}`,
    status: 400,
    detail: /out of range/,
  },
  {
    name: 'match htm16 2^63',
    path: `/v1/loci?elasticsearch_query%5Blocus_listing%5D=${q('{"query":{"match":{"htm16":9223372036854775808}}}')}`,
    status: 400,
    detail: /whole number/,
  },
  {
    name: 'range gte 2.5 on num_mag_values',
    path: `/v1/loci?${search({ range: { 'properties.num_mag_values': { gte: 2.5 } } })}`,
    status: 200,
  },
  { name: 'term 1.5 on num_mag_values', path: `/v1/loci?${search({ term: { 'properties.num_mag_values': 1.5 } })}`, status: 200 },
  { name: 'range 1e308 on a float column', path: `/v1/loci?${search({ range: { ra: { lte: 1e308 } } })}`, status: 200 },
  {
    name: 'minimum_should_match 1e308 (matches nothing)',
    status: 200,
    path: `/v1/loci/statistics?${search({ bool: { should: [{ match_all: {} }, { match_none: {} }], minimum_should_match: 1e308 } })}`,
  },
  { name: 'page[limit] beyond 2^53', path: '/v1/tags?page%5Blimit%5D=9007199254740993', status: 400, detail: /page\[limit\]/ },
  // Filter values of the wrong type.
  {
    name: 'created_at lt not-a-date',
    path: `/v1/announcements?${filter([{ field: 'created_at', op: 'lt', value: 'not-a-date' }])}`,
    status: 400,
    detail: /date/,
  },
  {
    name: 'created_at in year 0',
    path: `/v1/announcements?${filter([{ field: 'created_at', op: 'lt', value: '0000-01-01' }])}`,
    status: 400,
    detail: /date/,
  },
  { name: 'id eq "x"', path: `/v1/announcements?${filter([{ field: 'id', op: 'eq', value: 'x' }])}`, status: 400, detail: /whole number/ },
  { name: 'id in [1, {}]', path: `/v1/announcements?${filter([{ field: 'id', op: 'in', value: [1, {}] }])}`, status: 400 },
  {
    name: 'active eq "yes"',
    path: `/v1/announcements?${filter([{ field: 'active', op: 'eq', value: 'yes' }])}`,
    status: 400,
    detail: /true or false/,
  },
  {
    name: 'a valid filter',
    path: `/v1/announcements?${filter([
      { field: 'created_at', op: 'lt', value: '2999-01-01' },
      { field: 'id', op: 'in', value: [1, '2'] },
    ])}`,
    status: 200,
  },
  // Times beyond what PostgreSQL stores.
  { name: 'notice time in year 275760', path: '/v1/grav_wave_notices/S1/%2B275760-09-13T00%3A00%3A00Z', status: 400 },
  { name: 'notice time in year 0', path: '/v1/grav_wave_notices/S1/0000-01-01', status: 400 },
  {
    name: 'notice created in year 275760',
    caller: 'admin',
    method: 'POST',
    path: '/v1/grav_wave_notices',
    status: 400,
    detail: /time_created/,
    json: { superevent_id: 'MS230518e', alert_type: 'RETRACTION', time_created: '+275760-09-13T00:00:00Z' },
  },
  // The framework's own refusals, as JSON:API errors.
  { name: 'bad percent-encoding in the path', path: '/v1/loci/%ff', status: 400, detail: /malformed percent-encoding/ },
  { name: 'unknown route', path: '/v1/no-such-thing', status: 404 },
  { name: 'path segment over 1000 characters', path: `/v1/loci/${'x'.repeat(1200)}`, status: 414 },
  { name: 'headers over 16 KB', path: '/v1/loci', headers: { 'x-padding': 'p'.repeat(20_000) }, status: 431 },
  {
    name: 'malformed JSON body',
    method: 'POST',
    path: '/v1/auth/forgot',
    raw: { body: '{"username":', type: 'application/json' },
    status: 400,
  },
  {
    name: 'prototype poisoning in a body',
    method: 'POST',
    path: '/v1/auth/forgot',
    raw: { body: '{"__proto__":{"admin":true}}', type: 'application/json' },
    status: 400,
  },
  {
    name: 'wrong content type',
    method: 'POST',
    path: '/v1/auth/forgot',
    raw: { body: 'username=a', type: 'application/x-www-form-urlencoded' },
    status: 415,
  },
  {
    name: 'JSON body over 1 MB',
    method: 'POST',
    path: '/v1/auth/forgot',
    raw: { body: JSON.stringify({ username: 'u'.repeat(1_100_000) }), type: 'application/json' },
    status: 413,
  },
  {
    name: 'deeply nested JSON body',
    method: 'POST',
    path: '/v1/auth/forgot',
    raw: { body: '['.repeat(100_000), type: 'application/json' },
    status: 400,
  },
  // Headers a handler reads.
  { name: 'Host that is no host', path: '/v1/tags', headers: { host: '#x:' }, status: 400, detail: /Host header/ },
  { name: 'Host with a path', path: '/v1/tags', headers: { host: 'evil.example/x' }, status: 400, detail: /Host header/ },
  { name: 'X-Forwarded-Proto that is no protocol', path: '/v1/tags', headers: { 'x-forwarded-proto': 'javascript' }, status: 200 },
];

let fuzz: FuzzServer;
let locus = '';

beforeAll(async () => {
  fuzz = await FuzzServer.start();
  locus = fuzz.ids.get('locusId')![0];
}, 180_000);
afterAll(async () => fuzz?.close());

async function sendCase(entry: Case): Promise<RawAnswer> {
  const caller = entry.caller ?? 'anonymous';
  const self = caller === 'anonymous' ? '0' : String(await fuzz.userIdOf(caller));
  const headers: Record<string, string> = { ...entry.headers };
  let body: string | undefined;
  if (entry.json !== undefined) [body, headers['content-type']] = [JSON.stringify(entry.json), 'application/json'];
  if (entry.raw) [body, headers['content-type']] = [entry.raw.body, entry.raw.type];
  return fuzz.send(caller, {
    method: entry.method ?? 'GET',
    path: entry.path.replaceAll('@self', self).replaceAll('@locus', locus),
    headers,
    body,
  });
}

describe('inputs that once failed the server', () => {
  it.each(CASES.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    const answer = await sendCase(entry);
    expect(answerProblem(answer, entry.method)).toBeUndefined();
    expect(answer.status, answer.text.slice(0, 300)).toBe(entry.status);
    if (entry.detail) expect(JSON.parse(answer.text).errors[0].detail).toMatch(entry.detail);
  });

  it('refuses a built-in property name as the sort field of every list route', async () => {
    const openApi = JSON.parse((await sendRaw(fuzz.url, { method: 'GET', path: '/v1/openapi.json' })).text);
    const admin = await fuzz.userIdOf('admin');
    const sortable = Object.entries(openApi.paths as Record<string, Record<string, { parameters?: Array<{ name: string }> }>>)
      .filter(([, operations]) => operations.get?.parameters?.some((p) => p.name === 'sort'))
      .map(([path]) =>
        path.replace('{userId}', String(admin)).replace(/\{\w+\}/g, (param) => fuzz.ids.get(param.slice(1, -1))?.[0] ?? 'x'),
      );
    expect(sortable.length).toBeGreaterThan(8);
    const answers: string[] = [];
    for (const path of sortable) {
      for (const name of PROTOTYPE_NAMES) {
        const answer = await fuzz.send('admin', { method: 'GET', path: `${path}?sort=-${name}` });
        answers.push(`${path} sort=-${name}: ${answer.status} ${answerProblem(answer) ?? ''}`);
      }
    }
    // 400 where the route reads sort; 404 where its record is missing is no failure of the sort check.
    expect(answers.filter((line) => !/: 400 $/.test(line))).toEqual([]);
  });

  it('counts the real matches on a page far past the end, not the offset', async () => {
    const first = JSON.parse((await fuzz.send('anonymous', { method: 'GET', path: '/v1/loci?page%5Blimit%5D=1' })).text);
    const far = await fuzz.send('anonymous', { method: 'GET', path: '/v1/loci?page%5Blimit%5D=1000&page%5Boffset%5D=999999999999' });
    expect(far.status).toBe(200);
    expect(JSON.parse(far.text)).toMatchObject({ data: [], meta: { count: first.meta.count } });
  });

  it('answers a pipelined flood of hostile requests in one write, each in order as JSON:API, and stays up', async () => {
    const paths = [
      `/v1/loci?${search(nestedSearch(60))}`,
      '/v1/loci?page%5Blimit%5D=1000',
      `/v1/loci?${search({ terms: { locus_id: Array.from({ length: 1100 }, (_, i) => i) } })}`,
      '/v1/loci/%ff',
      '/v1/no_such_route',
      '/v1/loci?page%5Blimit%5D=1e400',
    ];
    const requests = Array.from({ length: 120 }, (_, i) => `GET ${paths[i % paths.length]} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const answers = await sendPipelined(fuzz.url, requests);
    expect(answers).toHaveLength(120);
    for (const answer of answers) {
      expect(answerProblem({ status: answer.status, contentType: answer.contentType, text: answer.body })).toBeUndefined();
    }
    // Past the requests a connection may have in flight, the flood is refused rather than run.
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    const health = await sendRaw(fuzz.url, { method: 'GET', path: '/v1/loci?page%5Blimit%5D=1' });
    expect(health.status).toBe(200);
  });

  it('answers bytes no HTTP client sends with JSON:API errors', async () => {
    for (const bytes of [
      'GET /v1/loci HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n',
      'GET /v1/loci HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      'BREW /v1/loci HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /v1/lo ci HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /v1/loci HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      'GET /v1/loci HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n',
    ]) {
      const answer = await sendBytes(fuzz.url, bytes);
      expect(answer.status, JSON.stringify(bytes)).toBe(400);
      expect(answerProblem(answer), JSON.stringify(bytes)).toBeUndefined();
    }
    const health = await sendRaw(fuzz.url, { method: 'GET', path: '/v1/loci?page%5Blimit%5D=1' });
    expect(health.status).toBe(200);
  });
});
