import { readFileSync } from 'node:fs';
import path from 'node:path';

import { hashPassword } from '../auth/passwords.ts';
import { acceptingSandbox } from '../testing/accepting-sandbox.ts';
import { HttpSession } from '../testing/http-session.ts';
import { SHARED_DATA, startTestServer, type TestServer } from '../testing/test-server.ts';
import { closeRawConnections, type RawAnswer, type RawRequest, sendRaw } from './raw-http.ts';

/**
 * A real server with real alerts and one record of every kind (filter, version, watch list, annotation,
 * announcement, grav-wave notice, alert upload), and signed-in sessions to fuzz it with: the ids become
 * path parameters, so random requests reach past "not found" into the code behind.
 */

export type Caller = 'anonymous' | 'user' | 'admin';

const PASSWORD = 'Galaxy2026';
interface SignedIn {
  cookies: Map<string, string>;
  userId: number;
}

export class FuzzServer {
  /** Real values per path parameter name (`locusId` -> locus ids), and every one of them under `*`. */
  readonly ids = new Map<string, string[]>();
  private readonly current: Partial<Record<Exclude<Caller, 'anonymous'>, SignedIn>> = {};
  private passwordHash = '';
  private accounts = 0;

  private constructor(readonly server: TestServer) {}

  static async start(): Promise<FuzzServer> {
    const server = await startTestServer({
      ingest: ['ztf-avro-alert/samples'],
      filterSandbox: acceptingSandbox,
    });
    const fuzz = new FuzzServer(server);
    fuzz.passwordHash = await hashPassword(PASSWORD);
    await fuzz.createRecords();
    return fuzz;
  }

  get url(): string {
    return this.server.url;
  }

  /** Every registered route, "METHOD /url". */
  get routes(): string[] {
    return this.server.routes;
  }

  /**
   * Sends `request` as `caller`: a signed-in caller's cookies go along, with the CSRF header unless
   * `csrf` is false. A call that may end the session (auth, account changes) is followed by a check,
   * and an ended session is replaced by a new account's, so later requests still come signed in.
   */
  async send(caller: Caller, request: RawRequest, options: { csrf?: boolean } = {}): Promise<RawAnswer> {
    const signedIn = caller === 'anonymous' ? undefined : await this.signedIn(caller);
    const headers: Record<string, string> = { ...request.headers };
    if (signedIn) {
      const cookies = [...signedIn.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      headers.cookie = headers.cookie ? `${cookies}; ${headers.cookie}` : cookies;
      const csrf = signedIn.cookies.get('csrf_access_token');
      if (options.csrf !== false && csrf && !('x-csrf-token' in headers)) headers['x-csrf-token'] = csrf;
    }
    const answer = await sendRaw(this.url, { ...request, headers });
    if (signedIn && caller !== 'anonymous' && /^\/v1\/(auth|users)\b/.test(request.path) && request.method !== 'GET') {
      const check = await sendRaw(this.url, {
        method: 'GET',
        path: '/v1/auth/check',
        headers: { cookie: [...signedIn.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      if (check.status !== 200) delete this.current[caller];
    }
    return answer;
  }

  /** The id of the user signed in as `caller` now. */
  async userIdOf(caller: Exclude<Caller, 'anonymous'>): Promise<number> {
    return (await this.signedIn(caller)).userId;
  }

  async close(): Promise<void> {
    closeRawConnections();
    await this.server.close();
  }

  /**
   * The session of `caller`, logging a new account in when there is none. Each login comes from a new
   * loopback address (127.0.0.2, ...): the login throttle the fuzzing itself sets off (failed logins from
   * 127.0.0.1) must not keep the fuzzer out.
   */
  private async signedIn(caller: Exclude<Caller, 'anonymous'>): Promise<SignedIn> {
    const existing = this.current[caller];
    if (existing) return existing;
    const n = ++this.accounts;
    const username = `fuzz-${caller}-${n}`;
    const user = await this.server.repos.users.create({
      username,
      email: `${username}@example.org`,
      name: username,
      password_hash: this.passwordHash,
      admin: caller === 'admin',
    });
    const login = await sendRaw(this.url, {
      method: 'POST',
      path: '/v1/auth/login?type=cookie',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: PASSWORD }),
      from: `127.0.${Math.floor(n / 250)}.${2 + (n % 250)}`,
    });
    if (login.status !== 200) throw new Error(`login of ${username} answered ${login.status}: ${login.text}`);
    const cookies = new Map(
      (login.setCookies ?? [])
        .map((header) => header.split(';')[0])
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as [string, string]),
    );
    const signedIn = { cookies, userId: user!.user_id };
    this.current[caller] = signedIn;
    return signedIn;
  }

  private async createRecords(): Promise<void> {
    // The records belong to accounts of their own, which the fuzzing never signs in as (nor out).
    const user = await this.ownerSession('fuzz-owner', false);
    const admin = await this.ownerSession('fuzz-owner-admin', true);
    const userId = user.userId;
    this.add('userId', String(userId), String(admin.userId));
    const anonymous = new HttpSession(this.url);
    const loci = (await anonymous.get('/v1/loci?page%5Blimit%5D=3')).body.data as Array<{ id: string }>;
    this.add('locusId', ...loci.map((l) => l.id));
    for (const locus of loci) {
      const alerts = (await anonymous.get(`/v1/loci/${locus.id}/alerts`)).body.data as Array<{ id: string }>;
      this.add('alertId', ...alerts.slice(0, 2).map((a) => a.id));
      for (const alert of alerts.slice(0, 2)) {
        const thumbnails = (await anonymous.get(`/v1/alerts/${encodeURIComponent(alert.id)}/thumbnails`)).body.data as Array<{
          id: string;
        }>;
        this.add('filename', ...thumbnails.slice(0, 1).map((t) => t.id));
      }
    }
    // The cutout files an alert serves (GET /v1/alerts/:alertId/cutouts/:file), one per kind.
    this.add('file', 'science.fits', 'template.fits', 'difference.fits');
    const created = async (session: HttpSession, url: string, body: unknown) => {
      const answer = await session.post(url, body);
      if (answer.status !== 201 && answer.status !== 200)
        throw new Error(`${url} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return String(answer.body.data.id);
    };
    const filterId = await created(user.session, `/v1/users/${userId}/filters`, {
      data: { type: 'filter', attributes: { name: 'Fuzz finder', description: 'Finds things' } },
    });
    this.add('filterId', filterId);
    this.add(
      'versionId',
      await created(user.session, `/v1/filters/${filterId}/versions`, {
        data: { type: 'filter_version', attributes: { code: 'x = 1', comment: 'first' } },
      }),
    );
    this.add(
      'id',
      await created(user.session, `/v1/users/${userId}/watch_lists`, {
        data: {
          type: 'watch_list',
          attributes: {
            name: 'Fuzz list',
            description: 'Around a source',
            objects: [{ right_ascension: 10, declination: 20, radius: 0.001 }],
          },
        },
      }),
    );
    this.add(
      'annotationId',
      await created(user.session, `/v1/users/${userId}/locus_annotations`, {
        data: {
          type: 'locus_annotation',
          attributes: { comment: 'note' },
          relationships: { locus: { data: { type: 'locus', id: loci[0].id } } },
        },
      }),
    );
    this.add(
      'id',
      await created(admin.session, '/v1/announcements', { data: { type: 'announcement', attributes: { message: 'Hi', variant: 'info' } } }),
    );
    const notice = JSON.parse(readFileSync(path.join(SHARED_DATA, 'skyportal/gw/igwn_gwalert_preliminary.json'), 'utf8'));
    await created(admin.session, '/v1/grav_wave_notices', notice);
    this.add('gracedbId', String(notice.superevent_id));
    this.add('noticeDatetime', String(notice.time_created ?? '2024-01-01T00:00:00Z'));
    const upload = await admin.session.request('POST', '/v1/alert_uploads', {
      raw: readFileSync(path.join(SHARED_DATA, 'ztf-avro-alert/samples/1661382530015060001_v3.5_ZTF18aaxjdyr.avro')),
      headers: { 'content-type': 'application/avro' },
    });
    this.add('uploadId', String(upload.body?.data?.id ?? ''));
    // An enabled filter with a tag: the tag, its output stream (messages, events) and the runner entry.
    const version = await this.server.repos.filters.createVersion({
      filter_id: Number(filterId),
      code: '#',
      comment: 'v1',
      declared_outputs: { tags: ['fuzz_tag'] },
    });
    await this.server.repos.filters.transition(Number(filterId), version.filter_version_id, 'ENABLED', null);
    // Two finished backtests of that version (their results, event streams and comparison); no sandbox runs here.
    for (const key of ['backtestId', 'otherId']) {
      const job = await this.server.repos.backtests.create({
        user_id: userId,
        filter_id: Number(filterId),
        filter_version_id: version.filter_version_id,
        code: '#',
        filter_class: null,
        params: { from_mjd: 0, to_mjd: 100_000, search: null, max_loci: 10, granularity: 'alert' },
      });
      await this.server.repos.backtests.finish(job.backtest_id, 'done', 1, { results: {} });
      this.add(key, String(job.backtest_id));
    }
    this.add('name', 'num_mag_values', 'ztf_object_id', 'Fuzz finder', 'fuzz_tag');
    this.add('ra', '10', '359.5', '0');
    this.add('dec', '20', '-89.9', '0');
  }

  private async ownerSession(username: string, admin: boolean): Promise<{ session: HttpSession; userId: number }> {
    const user = await this.server.repos.users.create({
      username,
      email: `${username}@example.org`,
      name: username,
      password_hash: this.passwordHash,
      admin,
    });
    const session = new HttpSession(this.url);
    const login = await session.post('/v1/auth/login?type=cookie', { username, password: PASSWORD });
    if (login.status !== 200) throw new Error(`login of ${username} answered ${login.status}`);
    return { session, userId: user!.user_id };
  }

  private add(name: string, ...values: string[]): void {
    const real = values.filter((v) => v !== '');
    this.ids.set(name, [...(this.ids.get(name) ?? []), ...real]);
    this.ids.set('*', [...(this.ids.get('*') ?? []), ...real]);
  }
}
