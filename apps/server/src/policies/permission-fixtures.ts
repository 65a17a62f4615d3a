import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

import { afterAll, beforeAll, expect } from 'vitest';

import { hashPassword } from '../auth/passwords.ts';
import { acceptingSandbox } from '../testing/accepting-sandbox.ts';
import { HttpSession } from '../testing/http-session.ts';
import { SHARED_DATA, startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * The server behind the permission tests: real alerts, three accounts ("user" owns the records, "other" is
 * another user, "admin") with a cookie session each plus an anonymous one, and one record of every kind
 * the routes take as a parameter (fx).
 */
export type Who = 'anonymous' | 'user' | 'other' | 'admin';
export const CALLERS: Who[] = ['anonymous', 'user', 'other', 'admin'];
export const PASSWORD = 'Galaxy2026';

/** Filled by usePermissionServer() before the tests of the file run. */
export const the = { server: undefined as unknown as TestServer };
export const sessions = {} as Record<Who, HttpSession>;
export const ids = {} as Record<Exclude<Who, 'anonymous'>, number>;
export const fx = {
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
  /** A version of the private filter listing a data file, and that file's name. */
  fileVersion: 0,
  file: 'matrix.txt',
};

/** Stores the private filter's data file (again), so that a call reading or deleting it finds one. */
export async function storeMatrixFile(): Promise<void> {
  const { repos } = the.server;
  const stored = await repos.filterFiles.store!.write(Readable.from([Buffer.from('matrix file')]), 1 << 20);
  await repos.filterFiles.put(fx.privateFilter, { name: fx.file, ...stored });
}
export const alertFile = {
  bytes: readFileSync(path.join(SHARED_DATA, 'ztf-avro-alert/samples/1661382530015060001_v3.5_ZTF18aaxjdyr.avro')),
  type: 'application/avro',
};
export const gwNotice = JSON.parse(readFileSync(path.join(SHARED_DATA, 'skyportal/gw/igwn_gwalert_preliminary.json'), 'utf8'));
export const GW_ID = String(gwNotice.superevent_id);
let counter = 0;
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A second, independent session of an account (for the calls that end or replace a session). */
export async function newSession(who: Who): Promise<HttpSession> {
  const session = new HttpSession(the.server.url);
  if (who !== 'anonymous')
    expect((await session.post('/v1/auth/login?type=cookie', { username: `${who}-account`, password: PASSWORD })).status).toBe(200);
  return session;
}

export const credentials = (who: Who) => ({ username: `${who}-account`, password: who === 'anonymous' ? 'Wrong-password1' : PASSWORD });
export const watchListBody = () => ({
  data: {
    type: 'watch_list',
    attributes: {
      name: unique('List '),
      description: 'Around a source',
      objects: [{ right_ascension: 10, declination: 20, radius: 0.001 }],
    },
  },
});
export const annotationBody = (locus: string, owner?: number) => ({
  data: {
    type: 'locus_annotation',
    attributes: { comment: 'note' },
    relationships: {
      locus: { data: { type: 'locus', id: locus } },
      ...(owner ? { owner: { data: { type: 'user', id: String(owner) } } } : {}),
    },
  },
});

/** Starts the server with its accounts and records before the file's tests, and closes it after. */
export function usePermissionServer(): void {
  beforeAll(async () => {
    the.server = await startTestServer({
      ingest: ['ztf-avro-alert/samples'],
      filterSandbox: acceptingSandbox,
    });
    const { repos } = the.server;
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
    fx.fileVersion = (
      await repos.filters.createVersion({
        filter_id: fx.privateFilter,
        code: '#',
        comment: 'with a file',
        declared_outputs: { requires_files: [fx.file] },
      })
    ).filter_version_id;
    await storeMatrixFile();
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
  afterAll(async () => the.server?.close());
}
