import { type Endpoint, ENDPOINTS } from '@antares/contract/endpoints';

import { HttpSession } from '../testing/http-session.ts';
import {
  alertFile,
  annotationBody,
  credentials,
  fx,
  GW_ID,
  gwNotice,
  ids,
  newSession,
  PASSWORD,
  sessions,
  storeMatrixFile,
  the,
  unique,
  watchListBody,
  type Who,
} from './permission-fixtures.ts';

// The permission matrix: every route the server registers, called by an anonymous visitor, the owner of
// the records involved ("user"), another user and an admin, with the status each must get. A route
// without an entry fails the test, so a new endpoint cannot ship without its row. A route described in the
// contract (@antares/contract/endpoints) takes its access from there: its row must agree with it, and every
// answer of 2xx must match the contract's response schema.

export interface Call {
  path: string;
  body?: unknown;
  /** A raw body (an alert file) with its content type. */
  raw?: { bytes: Uint8Array; type: string };
  session?: HttpSession;
  /** Server-sent events: only the status is read, then the connection is dropped. */
  stream?: boolean;
}

export interface Entry {
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
export const contract = new Map<string, Endpoint>(ENDPOINTS.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint]));
const get = (route: string, path: string, expected: Record<Who, number> = PUBLIC): Entry => ({
  route,
  expect: expected,
  call: () => ({ path }),
});

export function matrix(): Entry[] {
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
    get('GET /v1/filter_runner/:name', `/v1/filter_runner/${encodeURIComponent(fx.enabledFilterName)}`),
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
      (who) => ({ path: '/v1/auth/login?type=cookie', body: credentials(who), session: new HttpSession(the.server.url) }),
      { ownAnonymousMessage: true },
    ),
    e(
      'POST /v1/auth/login-fresh',
      { anonymous: 401, user: 200, other: 200, admin: 200 },
      (who) => ({ path: '/v1/auth/login-fresh?type=cookie', body: credentials(who), session: new HttpSession(the.server.url) }),
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
    // A forged verification link: nobody's address is confirmed by it (the real link is in accounts-hardening.test.ts).
    e(
      'GET /v1/auth/verify-email',
      { anonymous: 401, user: 401, other: 401, admin: 401 },
      () => ({ path: '/v1/auth/verify-email?token=not-a-token' }),
      { ownAnonymousMessage: true },
    ),
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

    // Filter data files: seen as the filter is (a private one's by its owner and admins), changed by its owner or an admin.
    e('GET /v1/filters/:filterId/files', { anonymous: 404, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/filters/${fx.privateFilter}/files`,
    })),
    e('PUT /v1/filters/:filterId/files/:name', { anonymous: 401, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/filters/${fx.privateFilter}/files/${fx.file}`,
      raw: { bytes: Buffer.from('matrix file'), type: 'text/plain' },
    })),
    e('GET /v1/filters/:filterId/files/:name', { anonymous: 404, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/filters/${fx.privateFilter}/files/${fx.file}`,
    })),
    e('DELETE /v1/filters/:filterId/files/:name', { anonymous: 401, user: 204, other: 404, admin: 204 }, async () => {
      await storeMatrixFile();
      return { path: `/v1/filters/${fx.privateFilter}/files/${fx.file}` };
    }),
    e('GET /v1/filters/:filterId/versions/:versionId/files', { anonymous: 404, user: 200, other: 404, admin: 200 }, () => ({
      path: `/v1/filters/${fx.privateFilter}/versions/${fx.fileVersion}/files`,
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
export async function send(who: Who, call: Call, method: string, options: { csrf?: boolean } = {}) {
  const session = call.session ?? sessions[who];
  if (call.raw)
    return session.request(method, call.path, { raw: call.raw.bytes, headers: { 'content-type': call.raw.type }, csrf: options.csrf });
  if (!call.stream) return session.request(method, call.path, { body: call.body, csrf: options.csrf });
  const controller = new AbortController();
  const cookie = [...session.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const response = await fetch(`${the.server.url}${call.path}`, { headers: cookie ? { cookie } : {}, signal: controller.signal });
  controller.abort();
  return { status: response.status, body: undefined, headers: response.headers };
}
