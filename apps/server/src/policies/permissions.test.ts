import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { FilterTestReport } from '@antares/contract';
import { type Endpoint, ENDPOINTS, responseProblems } from '@antares/contract/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '../auth/passwords.ts';
import { HttpSession } from '../testing/http-session.ts';
import { SHARED_DATA, startTestServer, type TestServer } from '../testing/test-server.ts';

// The permission matrix: every route the server registers, called by an anonymous visitor, the owner of
// the records involved ("user"), another user and an admin, with the status each must get. A route
// without an entry fails the test, so a new endpoint cannot ship without its row. A route described in the
// contract (@antares/contract/endpoints) takes its access from there: its row must agree with it, and every
// answer of 2xx must match the contract's response schema.
type Who = 'anonymous' | 'user' | 'other' | 'admin';
const CALLERS: Who[] = ['anonymous', 'user', 'other', 'admin'];
const PASSWORD = 'Galaxy2026';

let server: TestServer;
const sessions = {} as Record<Who, HttpSession>;
const ids = {} as Record<Exclude<Who, 'anonymous'>, number>;
const fx = {
  locus: '',
  locus2: '',
  locus3: '',
  alert: '',
  thumbnail: '',
  annotation: '',
  watchList: 0,
  privateFilter: 0,
  privateVersion: 0,
  publicFilter: 0,
  enabledFilterName: '',
  tag: '',
  announcement: '',
  upload: '',
  backtest: 0,
};
const alertFile = {
  bytes: readFileSync(path.join(SHARED_DATA, 'ztf-avro-alert/samples/1661382530015060001_v3.5_ZTF18aaxjdyr.avro')),
  type: 'application/avro',
};
const gwNotice = JSON.parse(readFileSync(path.join(SHARED_DATA, 'skyportal/gw/igwn_gwalert_preliminary.json'), 'utf8'));
const GW_ID = String(gwNotice.superevent_id);
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

const DRY_RUN: FilterTestReport = {
  loaded: true,
  load_error: null,
  outputs: { tags: [], locus_properties: [], alert_properties: [], class_name: null, filter_classes: [] },
  stdout: '',
  loci: [],
  stopped_early: null,
  timing: { p50_ms: null, p90_ms: null, p99_ms: null },
  counts: { loci: 0, ok: 0, skipped: 0, error: 0, tagged: 0 },
};

/** A second, independent session of an account (for the calls that end or replace a session). */
async function newSession(who: Who): Promise<HttpSession> {
  const session = new HttpSession(server.url);
  if (who !== 'anonymous')
    expect((await session.post('/v1/auth/login?type=cookie', { username: `${who}-account`, password: PASSWORD })).status).toBe(200);
  return session;
}

const credentials = (who: Who) => ({ username: `${who}-account`, password: who === 'anonymous' ? 'Wrong-password1' : PASSWORD });
const watchListBody = () => ({
  data: {
    type: 'watch_list',
    attributes: {
      name: unique('List '),
      description: 'Around a source',
      objects: [{ right_ascension: 10, declination: 20, radius: 0.001 }],
    },
  },
});
const annotationBody = (locus: string, owner?: number) => ({
  data: {
    type: 'locus_annotation',
    attributes: { comment: 'note' },
    relationships: {
      locus: { data: { type: 'locus', id: locus } },
      ...(owner ? { owner: { data: { type: 'user', id: String(owner) } } } : {}),
    },
  },
});

interface Call {
  path: string;
  body?: unknown;
  /** A raw body (an alert file) with its content type. */
  raw?: { bytes: Uint8Array; type: string };
  session?: HttpSession;
  /** Server-sent events: only the status is read, then the connection is dropped. */
  stream?: boolean;
}

interface Entry {
  /** The registered route, "METHOD /url" as Fastify has it. */
  route: string;
  expect: Record<Who, number>;
  call: (who: Who) => Call | Promise<Call>;
  /** Anonymous 401s that are not "Must be authenticated" (wrong credentials, no refresh token, ...). */
  ownAnonymousMessage?: boolean;
  /** Why this case exists when a route has several. */
  note?: string;
}

const PUBLIC = { anonymous: 200, user: 200, other: 200, admin: 200 };
const contract = new Map<string, Endpoint>(ENDPOINTS.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint]));
const get = (route: string, path: string, expected: Record<Who, number> = PUBLIC): Entry => ({
  route,
  expect: expected,
  call: () => ({ path }),
});

function matrix(): Entry[] {
  const user = ids.user;
  const e = (route: string, expected: Record<Who, number>, call: Entry['call'], extra: Partial<Entry> = {}): Entry => ({
    route,
    expect: expected,
    call,
    ...extra,
  });
  return [
    // Site, documentation and the public catalogue of data: anyone.
    get('GET /config.json', '/config.json'),
    get('GET /v1/openapi.json', '/v1/openapi.json'),
    get('GET /v1/docs', '/v1/docs'),
    get('GET /v1/docs/json', '/v1/docs/json'),
    get('GET /v1/docs/yaml', '/v1/docs/yaml'),
    get('GET /v1/docs/static/*', '/v1/docs/static/swagger-ui.css'),
    get('GET /v1/docs/static/index.html', '/v1/docs/static/index.html'),
    get('GET /v1/docs/static/swagger-initializer.js', '/v1/docs/static/swagger-initializer.js'),
    get('GET /v1/loci', '/v1/loci?page%5Blimit%5D=2'),
    get('GET /v1/loci/statistics', '/v1/loci/statistics'),
    get('GET /v1/loci/:locusId', `/v1/loci/${fx.locus}`),
    get('GET /v1/loci/:locusId/alerts', `/v1/loci/${fx.locus}/alerts`),
    get('GET /v1/loci/:locusId/catalog-matches', `/v1/loci/${fx.locus}/catalog-matches`),
    e('POST /v1/loci/:locusId/finder-charts', PUBLIC, () => ({ path: `/v1/loci/${fx.locus}/finder-charts` })),
    get('GET /v1/alerts/:alertId', `/v1/alerts/${encodeURIComponent(fx.alert)}`),
    get('GET /v1/alerts/:alertId/thumbnails', `/v1/alerts/${encodeURIComponent(fx.alert)}/thumbnails`),
    get('GET /v1/alerts/:alertId/cutouts/:file', `/v1/alerts/${encodeURIComponent(fx.alert)}/cutouts/science.fits`),
    get('GET /v1/thumbnails/:filename', `/v1/thumbnails/${encodeURIComponent(fx.thumbnail)}`),
    get('GET /v1/alert_properties', '/v1/alert_properties'),
    get('GET /v1/alert_properties/:name', '/v1/alert_properties/ant_mag'),
    get('GET /v1/loci_properties', '/v1/loci_properties'),
    get('GET /v1/loci_properties/:name', '/v1/loci_properties/num_alerts'),
    get('GET /v1/catalog_samples', '/v1/catalog_samples'),
    get('GET /v1/catalog_search/:ra/:dec', '/v1/catalog_search/10/20'),
    get('GET /v1/tags', '/v1/tags'),
    get('GET /v1/tags/:name', `/v1/tags/${fx.tag}`),
    get('GET /v1/filter_runner', '/v1/filter_runner'),
    get('GET /v1/filter_environment', '/v1/filter_environment'),
    get('GET /v1/streams', '/v1/streams'),
    get('GET /v1/streams/:name/messages', `/v1/streams/${fx.tag}/messages`),
    e('GET /v1/streams/:name/events', PUBLIC, () => ({ path: `/v1/streams/${fx.tag}/events`, stream: true })),
    get('GET /v1/grav_wave_notices/latest', `/v1/grav_wave_notices/latest?ids=${GW_ID}`),
    get('GET /v1/grav_wave_notices/:gracedbId/latest', `/v1/grav_wave_notices/${GW_ID}/latest`),
    get(
      'GET /v1/grav_wave_notices/:gracedbId/:noticeDatetime',
      `/v1/grav_wave_notices/${GW_ID}/${encodeURIComponent(new Date(gwNotice.time_created).toISOString())}`,
    ),
    get('GET /v1/grav_wave_events', '/v1/grav_wave_events'),
    get('GET /v1/grav_wave_events/:gracedbId', `/v1/grav_wave_events/${GW_ID}`),
    get('GET /v1/grav_wave_events/:gracedbId/skymap', `/v1/grav_wave_events/${GW_ID}/skymap`),
    get('GET /v1/grav_wave_events/:gracedbId/loci', `/v1/grav_wave_events/${GW_ID}/loci`),
    get('GET /v1/announcements', '/v1/announcements'),

    // Sessions.
    e('GET /v1/auth/check', { anonymous: 401, user: 200, other: 200, admin: 200 }, () => ({ path: '/v1/auth/check' })),
    e(
      'POST /v1/auth/login',
      { anonymous: 401, user: 200, other: 200, admin: 200 },
      (who) => ({ path: '/v1/auth/login?type=cookie', body: credentials(who), session: new HttpSession(server.url) }),
      { ownAnonymousMessage: true },
    ),
    e(
      'POST /v1/auth/login-fresh',
      { anonymous: 401, user: 200, other: 200, admin: 200 },
      (who) => ({ path: '/v1/auth/login-fresh?type=cookie', body: credentials(who), session: new HttpSession(server.url) }),
      { ownAnonymousMessage: true },
    ),
    e(
      'POST /v1/auth/refresh',
      { anonymous: 401, user: 200, other: 200, admin: 200 },
      async (who) => ({ path: '/v1/auth/refresh?type=cookie', session: await newSession(who) }),
      { ownAnonymousMessage: true },
    ),
    e(
      'POST /v1/auth/logout',
      { anonymous: 401, user: 200, other: 200, admin: 200 },
      async (who) => ({ path: '/v1/auth/logout?type=cookie', session: await newSession(who) }),
      { ownAnonymousMessage: true },
    ),
    e('POST /v1/auth/forgot', { anonymous: 202, user: 202, other: 202, admin: 202 }, (who) => ({
      path: '/v1/auth/forgot',
      body: { username: `${who}-account` },
    })),
    // With a cookie session that is not fresh: the password stays (a fresh one is in auth.test.ts).
    e('POST /v1/auth/reset', { anonymous: 401, user: 401, other: 401, admin: 401 }, () => ({
      path: '/v1/auth/reset?type=cookie',
      body: { password: 'Changed2027' },
    })),

    // Accounts.
    e('POST /v1/users', { anonymous: 201, user: 201, other: 201, admin: 201 }, () => ({
      path: '/v1/users',
      body: { data: { type: 'user', attributes: { name: 'N', username: unique('reg'), email: 'n@example.org', password: PASSWORD } } },
    })),
    e('GET /v1/users', { anonymous: 401, user: 403, other: 403, admin: 200 }, () => ({ path: '/v1/users' })),
    e('GET /v1/users/:userId', { anonymous: 401, user: 200, other: 403, admin: 200 }, () => ({ path: `/v1/users/${user}` })),
    e('PATCH /v1/users/:userId', { anonymous: 401, user: 403, other: 403, admin: 200 }, () => ({
      path: `/v1/users/${user}`,
      body: { data: { type: 'user', id: String(user), attributes: { staff: true } } },
    })),

    // Annotations and favorites: only the owner changes them; an admin may read them.
    e('GET /v1/users/:userId/locus_annotations', { anonymous: 401, user: 200, other: 403, admin: 200 }, () => ({
      path: `/v1/users/${user}/locus_annotations`,
    })),
    e('POST /v1/users/:userId/locus_annotations', { anonymous: 401, user: 201, other: 403, admin: 403 }, () => ({
      path: `/v1/users/${user}/locus_annotations`,
      body: annotationBody(fx.locus2),
    })),
    e(
      'POST /v1/locus_annotations',
      { anonymous: 401, user: 201, other: 201, admin: 201 },
      () => ({ path: '/v1/locus_annotations', body: annotationBody(fx.locus3) }),
      { note: 'each caller annotates for themselves' },
    ),
    e(
      'POST /v1/locus_annotations',
      { anonymous: 401, user: 409, other: 403, admin: 403 },
      () => ({ path: '/v1/locus_annotations', body: annotationBody(fx.locus, user) }),
      { note: 'for the user: only the user (who already has one: 409)' },
    ),
    e('PATCH /v1/locus_annotations/:annotationId', { anonymous: 401, user: 200, other: 403, admin: 403 }, () => ({
      path: `/v1/locus_annotations/${fx.annotation}`,
      body: { data: { type: 'locus_annotation', id: fx.annotation, attributes: { comment: 'changed' } } },
    })),
    e('POST /v1/users/:userId/relationships/favorite_loci', { anonymous: 401, user: 204, other: 403, admin: 403 }, () => ({
      path: `/v1/users/${user}/relationships/favorite_loci`,
      body: { data: [{ type: 'locus', id: fx.locus }] },
    })),
    e('DELETE /v1/users/:userId/relationships/favorite_loci', { anonymous: 401, user: 204, other: 403, admin: 403 }, () => ({
      path: `/v1/users/${user}/relationships/favorite_loci`,
      body: { data: [{ type: 'locus', id: fx.locus }] },
    })),

    // Watch lists: the owner's; an admin may read, another user does not even learn that one exists.
    e('POST /v1/users/:userId/watch_lists', { anonymous: 401, user: 201, other: 403, admin: 403 }, () => ({
      path: `/v1/users/${user}/watch_lists`,
      body: watchListBody(),
    })),
    e('GET /v1/users/:userId/watch_lists', { anonymous: 401, user: 200, other: 403, admin: 200 }, () => ({
      path: `/v1/users/${user}/watch_lists`,
    })),
    e('GET /v1/watch_lists/:id', { anonymous: 401, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/watch_lists/${fx.watchList}`,
    })),
    e('DELETE /v1/watch_lists/:id', { anonymous: 401, user: 204, other: 404, admin: 403 }, async () => {
      const created = await sessions.user.post(`/v1/users/${user}/watch_lists`, watchListBody());
      return { path: `/v1/watch_lists/${created.body.data.id}` };
    }),

    // Filters: a private filter is the owner's and the admins'; others get "not found".
    get('GET /v1/filters', '/v1/filters'),
    e('GET /v1/users/:userId/filters', { anonymous: 401, user: 200, other: 403, admin: 200 }, () => ({
      path: `/v1/users/${user}/filters`,
    })),
    e('POST /v1/users/:userId/filters', { anonymous: 401, user: 201, other: 403, admin: 201 }, () => ({
      path: `/v1/users/${user}/filters`,
      body: { data: { type: 'filter', attributes: { name: unique('Filter '), description: 'Finds things' } } },
    })),
    e('POST /v1/filters/test', { anonymous: 401, user: 200, other: 200, admin: 200 }, () => ({
      path: '/v1/filters/test',
      body: { data: { type: 'filter_test', attributes: { code: 'x = 1', last_n: 1 } } },
    })),
    e('GET /v1/filters/:filterId', { anonymous: 404, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/filters/${fx.privateFilter}`,
    })),
    e('PATCH /v1/filters/:filterId', { anonymous: 401, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/filters/${fx.privateFilter}`,
      body: { data: { type: 'filter', attributes: { public: false } } },
    })),
    e(
      'PATCH /v1/filters/:filterId',
      { anonymous: 401, user: 200, other: 403, admin: 200 },
      () => ({ path: `/v1/filters/${fx.publicFilter}`, body: { data: { type: 'filter', attributes: { public: true } } } }),
      { note: 'a public filter of the user' },
    ),
    e('GET /v1/filters/:filterId/versions', { anonymous: 404, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/filters/${fx.privateFilter}/versions`,
    })),
    e('GET /v1/filters/:filterId/versions/:versionId', { anonymous: 404, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/filters/${fx.privateFilter}/versions/${fx.privateVersion}`,
    })),
    e('POST /v1/filters/:filterId/versions', { anonymous: 401, user: 201, other: 404, admin: 201 }, () => ({
      path: `/v1/filters/${fx.privateFilter}/versions`,
      body: { data: { type: 'filter_version', attributes: { code: 'x = 1', comment: 'again' } } },
    })),
    e('PATCH /v1/filters/:filterId/versions/:versionId', { anonymous: 401, user: 403, other: 403, admin: 200 }, () => ({
      path: `/v1/filters/${fx.privateFilter}/versions/${fx.privateVersion}`,
      body: { data: { type: 'filter_version', attributes: { status: 'REVIEWED' } } },
    })),
    e('PATCH /v1/filter_runner/:name', { anonymous: 401, user: 403, other: 403, admin: 200 }, () => ({
      path: `/v1/filter_runner/${encodeURIComponent(fx.enabledFilterName)}`,
      body: { data: { type: 'filter_runner_filter', attributes: { enabled: true } } },
    })),

    // Filter backtests (issue #19): a saved version's by its owner or an admin; a job is seen and cancelled by
    // whoever started it, the filter's owner and admins. A bad cap or empty code: no job starts here.
    e(
      'POST /v1/filters/:filterId/versions/:versionId/backtests',
      { anonymous: 401, user: 400, other: 404, admin: 400 },
      () => ({
        path: `/v1/filters/${fx.privateFilter}/versions/${fx.privateVersion}/backtests`,
        body: { data: { type: 'backtest', attributes: { max_loci: 0 } } },
      }),
      { note: 'a bad cap: those allowed get as far as the checks' },
    ),
    e('POST /v1/filters/test/backtests', { anonymous: 401, user: 400, other: 400, admin: 400 }, () => ({
      path: '/v1/filters/test/backtests',
      body: { data: { type: 'backtest', attributes: { code: '' } } },
    })),
    e('GET /v1/filters/:filterId/versions/:versionId/backtests', { anonymous: 401, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/filters/${fx.privateFilter}/versions/${fx.privateVersion}/backtests`,
    })),
    e('GET /v1/filters/:filterId/versions/:versionId/backtests/:backtestId', { anonymous: 401, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/filters/${fx.privateFilter}/versions/${fx.privateVersion}/backtests/${fx.backtest}`,
    })),
    e('GET /v1/backtests/:backtestId', { anonymous: 401, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/backtests/${fx.backtest}`,
    })),
    e('GET /v1/backtests/:backtestId/comparison/:otherId', { anonymous: 401, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/backtests/${fx.backtest}/comparison/${fx.backtest}`,
    })),
    e('DELETE /v1/backtests/:backtestId', { anonymous: 401, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/backtests/${fx.backtest}`,
    })),
    // After the cancel: the stream sends the ended job and closes.
    e('GET /v1/backtests/:backtestId/events', { anonymous: 401, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/backtests/${fx.backtest}/events`,
    })),

    // Administration.
    e('POST /v1/announcements', { anonymous: 401, user: 403, other: 403, admin: 201 }, () => ({
      path: '/v1/announcements',
      body: { data: { type: 'announcement', attributes: { message: 'Hello', variant: 'info' } } },
    })),
    e('PATCH /v1/announcements/:id', { anonymous: 401, user: 403, other: 403, admin: 200 }, () => ({
      path: `/v1/announcements/${fx.announcement}`,
      body: { data: { type: 'announcement', attributes: { active: true } } },
    })),
    e('POST /v1/alert_uploads', { anonymous: 401, user: 403, other: 403, admin: 202 }, () => ({
      path: '/v1/alert_uploads',
      raw: alertFile,
    })),
    e('GET /v1/alert_uploads/:uploadId', { anonymous: 401, user: 403, other: 403, admin: 200 }, () => ({
      path: `/v1/alert_uploads/${fx.upload}`,
    })),
    e(
      'POST /v1/grav_wave_notices',
      { anonymous: 401, user: 403, other: 403, admin: 200 },
      () => ({ path: '/v1/grav_wave_notices', body: gwNotice }),
      { note: 'admin: already stored, so 200' },
    ),
  ];
}

async function send(who: Who, call: Call, method: string, options: { csrf?: boolean } = {}) {
  const session = call.session ?? sessions[who];
  if (call.raw)
    return session.request(method, call.path, { raw: call.raw.bytes, headers: { 'content-type': call.raw.type }, csrf: options.csrf });
  if (!call.stream) return session.request(method, call.path, { body: call.body, csrf: options.csrf });
  const controller = new AbortController();
  const cookie = [...session.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const response = await fetch(`${server.url}${call.path}`, { headers: cookie ? { cookie } : {}, signal: controller.signal });
  controller.abort();
  return { status: response.status, body: undefined as any, headers: response.headers };
}

beforeAll(async () => {
  server = await startTestServer({
    ingest: ['ztf-avro-alert/samples'],
    filterSandbox: { validate: async () => ({ ok: true, outputs: { tags: [] } }), dryRun: async () => DRY_RUN },
  });
  const { repos } = server;
  const hash = await hashPassword(PASSWORD);
  for (const who of ['user', 'other', 'admin'] as const) {
    ids[who] = (await repos.users.create({
      username: `${who}-account`,
      email: `${who}@example.org`,
      name: who,
      password_hash: hash,
      admin: who === 'admin',
    }))!.user_id;
  }
  for (const who of CALLERS) sessions[who] = await newSession(who);

  [fx.locus, fx.locus2, fx.locus3] = (await sessions.anonymous.get('/v1/loci?page%5Blimit%5D=3')).body.data.map(
    (d: { id: string }) => d.id,
  );
  const alerts = (await sessions.anonymous.get(`/v1/loci/${fx.locus}/alerts`)).body.data as Array<{ id: string }>;
  for (const alert of alerts) {
    const thumbnails = (await sessions.anonymous.get(`/v1/alerts/${encodeURIComponent(alert.id)}/thumbnails`)).body.data;
    if (thumbnails.length > 0) [fx.alert, fx.thumbnail] = [alert.id, thumbnails[0].id];
  }
  expect(fx.thumbnail).not.toBe('');

  fx.annotation = (await sessions.user.post(`/v1/users/${ids.user}/locus_annotations`, annotationBody(fx.locus))).body.data.id;
  fx.watchList = Number((await sessions.user.post(`/v1/users/${ids.user}/watch_lists`, watchListBody())).body.data.id);
  const createFilter = async (name: string) =>
    Number(
      (
        await sessions.user.post(`/v1/users/${ids.user}/filters`, {
          data: { type: 'filter', attributes: { name, description: 'Finds things' } },
        })
      ).body.data.id,
    );
  fx.privateFilter = await createFilter('Private finder');
  fx.privateVersion = Number(
    (
      await sessions.user.post(`/v1/filters/${fx.privateFilter}/versions`, {
        data: { type: 'filter_version', attributes: { code: 'x = 1', comment: 'first' } },
      })
    ).body.data.id,
  );
  // A backtest of the private version, queued (no runner takes it: none was started in this server).
  fx.backtest = (
    await repos.backtests.create({
      user_id: ids.user,
      filter_id: fx.privateFilter,
      filter_version_id: fx.privateVersion,
      code: 'x = 1',
      filter_class: null,
      params: { from_mjd: 0, to_mjd: 100_000, search: null, max_loci: 10, granularity: 'alert' },
    })
  ).backtest_id;
  fx.publicFilter = await createFilter('Public finder');
  await repos.filters.update(fx.publicFilter, { public: true });
  // An enabled public filter with a tag: the tag, its stream and the filter runner entry.
  fx.tag = 'matrix_tag';
  const version = await repos.filters.createVersion({
    filter_id: fx.publicFilter,
    code: '#',
    comment: 'v1',
    declared_outputs: { tags: [fx.tag] },
  });
  await repos.filters.transition(fx.publicFilter, version.filter_version_id, 'ENABLED', null);
  fx.enabledFilterName = 'Public finder';
  fx.announcement = (
    await sessions.admin.post('/v1/announcements', { data: { type: 'announcement', attributes: { message: 'Hi', variant: 'info' } } })
  ).body.data.id;
  expect((await sessions.admin.post('/v1/grav_wave_notices', gwNotice)).status).toBe(201);
  fx.upload = (
    await sessions.admin.request('POST', '/v1/alert_uploads', { raw: alertFile.bytes, headers: { 'content-type': alertFile.type } })
  ).body.data.id;
}, 180_000);
afterAll(async () => server?.close());

describe('permission matrix', () => {
  it('has an entry for every route the server registers, and no entry for a route it does not', () => {
    const entries = new Set(matrix().map((entry) => entry.route));
    const missing = server.routes.filter((route) => !entries.has(route));
    expect(missing, 'routes without a permission matrix entry').toEqual([]);
    expect(
      [...entries].filter((route) => !server.routes.includes(route)),
      'entries for routes that do not exist',
    ).toEqual([]);
    expect(server.routes.length).toBeGreaterThan(60);
  });

  it('agrees with the access each endpoint of the contract declares', () => {
    const failures: string[] = [];
    for (const entry of matrix()) {
      const access = contract.get(entry.route)?.access;
      // The session calls check the credentials they carry (a password, a token), not a session first.
      if (!access || contract.get(entry.route)?.credentials) continue;
      const refusesAnonymous = entry.expect.anonymous === 401;
      if (refusesAnonymous !== (access === 'login' || access === 'admin'))
        failures.push(`${entry.route}: contract says ${access}, anonymous expected ${entry.expect.anonymous}`);
      if (access === 'admin' && entry.expect.user !== 403) failures.push(`${entry.route}: admin only, user expected ${entry.expect.user}`);
    }
    expect(failures).toEqual([]);
    expect([...contract.keys()].filter((route) => !matrix().some((entry) => entry.route === route))).toEqual([]);
  });

  it('gives each caller the expected status on every route', async () => {
    const failures: string[] = [];
    for (const entry of matrix()) {
      const method = entry.route.split(' ')[0];
      for (const who of CALLERS) {
        const call = await entry.call(who);
        const response = await send(who, call, method);
        const where = `${who} ${method} ${call.path}${entry.note ? ` (${entry.note})` : ''}`;
        const described = contract.get(entry.route);
        if (response.status !== entry.expect[who]) {
          failures.push(
            `${where}: ${response.status}, expected ${entry.expect[who]} ${JSON.stringify(response.body?.errors?.[0]?.detail ?? '')}`,
          );
        } else if (described && response.status === described.response.status && !call.stream) {
          const problems = responseProblems(described, response.body);
          if (problems.length) failures.push(`${where}: the answer does not match the contract: ${problems.join('; ')}`);
        } else if (
          who === 'anonymous' &&
          response.status === 401 &&
          !entry.ownAnonymousMessage &&
          !/^Must be authenticated to call \w+$/.test(response.body?.errors?.[0]?.detail ?? '')
        ) {
          failures.push(`${where}: 401 without "Must be authenticated to call {operation}": ${JSON.stringify(response.body)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("refuses every unsafe call of a cookie session without the CSRF header (403), even an admin's", async () => {
    const failures: string[] = [];
    const unsafe = matrix().filter((entry) => !entry.route.startsWith('GET ') && entry.expect.anonymous === 401);
    expect(unsafe.length).toBeGreaterThan(20);
    for (const entry of unsafe) {
      const method = entry.route.split(' ')[0];
      const call = await entry.call('admin');
      // Refresh and logout are checked on a fresh session of their own; the others on the admin's.
      const session = call.session ?? sessions.admin;
      if (entry.route.includes('/auth/login')) continue; // logging in needs no session
      const response = await send('admin', { ...call, session }, method, { csrf: false });
      if (response.status !== 403 || !/CSRF/.test(response.body?.errors?.[0]?.detail ?? '')) {
        failures.push(
          `admin ${method} ${call.path} without X-CSRF-TOKEN: ${response.status} ${JSON.stringify(response.body?.errors?.[0]?.detail ?? '')}`,
        );
      }
    }
    expect(failures).toEqual([]);
    // The refused logout ended nothing.
    expect((await sessions.admin.get('/v1/auth/check')).status).toBe(200);
  });
});

describe('what another user sees', () => {
  it("lists none of the user's annotations, watch lists or private filters to another user", async () => {
    const { other, user, anonymous } = sessions;
    const listed = (await other.get('/v1/filters?page%5Blimit%5D=100')).body.data.map((f: { id: string }) => Number(f.id));
    expect(listed).toContain(fx.publicFilter);
    expect(listed).not.toContain(fx.privateFilter);
    expect((await anonymous.get('/v1/filters?page%5Blimit%5D=100')).body.data.map((f: { id: string }) => Number(f.id))).not.toContain(
      fx.privateFilter,
    );
    expect((await user.get('/v1/filters?page%5Blimit%5D=100')).body.data.map((f: { id: string }) => Number(f.id))).toContain(
      fx.privateFilter,
    );
    // Another user's records stay as they were after every refused call of the matrix.
    const annotations = (await user.get(`/v1/users/${ids.user}/locus_annotations`)).body.data;
    expect(annotations.map((a: any) => a.relationships.owner.data.id)).toEqual(annotations.map(() => String(ids.user)));
    expect(
      (await other.get(`/v1/users/${ids.other}/locus_annotations`)).body.data.every(
        (a: any) => a.relationships.owner.data.id === String(ids.other),
      ),
    ).toBe(true);
  });
});

describe('annotations and favorites', () => {
  it('keeps one annotation per (locus, owner) and lists favorites', async () => {
    const owner = (await server.repos.users.create({
      username: 'annotator',
      email: 'a@example.org',
      name: 'A',
      password_hash: await hashPassword(PASSWORD),
    }))!.user_id;
    const session = new HttpSession(server.url);
    await session.post('/v1/auth/login?type=cookie', { username: 'annotator', password: PASSWORD });
    const locus = fx.locus;
    const body = { data: { type: 'locus_annotation', attributes: {}, relationships: { locus: { data: { type: 'locus', id: locus } } } } };
    const first = await session.post('/v1/locus_annotations', body);
    expect(first.status).toBe(201);
    expect(first.body.data.attributes).toMatchObject({ comment: '', favorited: false });
    expect((await session.post('/v1/locus_annotations', body)).status).toBe(409);
    const tooLong = await session.patch(`/v1/locus_annotations/${first.body.data.id}`, {
      data: { attributes: { comment: 'x'.repeat(256) } },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0].detail).toContain('Field may not have more than 255 characters.');
    expect((await session.post(`/v1/users/${owner}/relationships/favorite_loci`, { data: [{ type: 'locus', id: locus }] })).status).toBe(
      204,
    );
    const list = await session.get(`/v1/users/${owner}/locus_annotations?page%5Blimit%5D=1000&page%5Boffset%5D=0`);
    const mine = list.body.data.find((a: any) => a.relationships.locus.data.id === locus);
    expect(mine.attributes.favorited).toBe(true);
    expect(list.body.meta.count).toBe(list.body.data.length);
    const paged = await session.get(`/v1/users/${owner}/locus_annotations?page%5Blimit%5D=1&page%5Boffset%5D=0`);
    expect(paged.body.data).toHaveLength(1);
    expect(paged.body.meta.count).toBe(list.body.meta.count);
    expect(
      (
        await session.request('DELETE', `/v1/users/${owner}/relationships/favorite_loci`, {
          body: { data: [{ type: 'locus', id: locus }] },
        })
      ).status,
    ).toBe(204);
    const after = await session.get(`/v1/users/${owner}/locus_annotations?page%5Blimit%5D=1000`);
    expect(after.body.data.find((a: any) => a.relationships.locus.data.id === locus).attributes).toMatchObject({
      favorited: false,
      comment: '',
    });
    const missing = await session.post(`/v1/users/${owner}/relationships/favorite_loci`, { data: [{ type: 'locus', id: 'ANT2020none' }] });
    expect(missing.status).toBe(404);
  });
});

describe('announcements', () => {
  it('creates, filters and toggles announcements with the spec limits', async () => {
    const admin = sessions.admin;
    const tooLong = await admin.post('/v1/announcements', { data: { attributes: { message: 'x'.repeat(2049), variant: 'info' } } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0].detail).toContain('Field may not have more than 2048 characters.');
    expect((await admin.post('/v1/announcements', { data: { attributes: { message: 'x'.repeat(2048), variant: 'dark' } } })).status).toBe(
      201,
    );
    expect(
      (await admin.post('/v1/announcements', { data: { attributes: { message: '  ', variant: 'info' } } })).body.errors[0].detail,
    ).toBe('message: Field is required.');
    expect((await admin.post('/v1/announcements', { data: { attributes: { message: 'x', variant: 'purple' } } })).status).toBe(400);
    for (const variant of ['primary', 'secondary', 'success', 'danger', 'warning', 'info', 'light', 'dark']) {
      expect((await admin.post('/v1/announcements', { data: { attributes: { message: `v ${variant}`, variant } } })).status, variant).toBe(
        201,
      );
    }
    const created = await admin.post('/v1/announcements', {
      data: { attributes: { message: 'Maintenance tonight', variant: 'warning', active: true } },
    });
    expect(created.status).toBe(201);
    const filter = encodeURIComponent(JSON.stringify([{ field: 'active', op: 'eq', value: true }]));
    const active = await sessions.anonymous.get(`/v1/announcements?filter=${filter}`);
    expect(active.body.data.map((a: any) => a.attributes.message)).toContain('Maintenance tonight');
    expect(active.body.data.every((a: any) => a.attributes.active)).toBe(true);
    const sorted = await sessions.anonymous.get('/v1/announcements?sort=-active&page%5Blimit%5D=2&page%5Boffset%5D=0');
    expect(sorted.body.data[0].attributes.active).toBe(true);
    expect(sorted.body.data).toHaveLength(2);
    expect(sorted.body.meta.count).toBeGreaterThan(2);
    const off = await admin.patch(`/v1/announcements/${created.body.data.id}`, { data: { attributes: { active: false } } });
    expect(off.body.data.attributes.active).toBe(false);
    expect((await sessions.anonymous.get(`/v1/announcements?filter=${filter}`)).body.data.map((a: any) => a.id)).not.toContain(
      created.body.data.id,
    );
    expect((await sessions.anonymous.get('/v1/announcements?filter=%5B%7B%22field%22%3A%22x%22%7D%5D')).status).toBe(400);
    expect((await admin.patch('/v1/announcements/999999', { data: { attributes: { active: true } } })).status).toBe(404);
  });
});
