import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { APT_INSTALL, createFilterSandbox, missingSandboxPrerequisites } from '@antares/pipeline';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import type { HttpSession } from '../../testing/http-session.ts';
import { signedInSession } from '../../testing/signed-in.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// Filter data files over HTTP (REQUIRES_FILES, ADR 0053): upload, list, download, delete; what a version
// was submitted with; hostile names and sizes; enabling without them; a request cut off mid-body. The
// code's REQUIRES_FILES are read by loading it in the real sandbox, as a submission does.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `filter data file API tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const EXAMPLES = path.resolve(import.meta.dirname, '../../../../../../shared/filters/examples');
const CODE = `import antares.devkit as dk
class Noted(dk.Filter):
    REQUIRES_FILES = ['notes.txt', 'weights.npy']
    def setup(self):
        self.notes = self.files['notes.txt']
    def run(self, locus):
        pass
`;
const KIB = 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const version = (code: string, extra: Record<string, unknown> = {}) => ({
  data: { type: 'filter_version', attributes: { code, comment: 'files', ...extra } },
});

describe.skipIf(missing.length > 0)('filter data files', () => {
  let server: TestServer;
  let closeSandbox = async () => {};
  let owner: HttpSession;
  let other: HttpSession;
  let admin: HttpSession;
  let filterId: number;
  let versionId: number;
  const filesDir = () => server.config.filterFilesDir;
  const put = (session: HttpSession, name: string, bytes: Uint8Array, type = 'application/octet-stream', id = filterId) =>
    session.request('PUT', `/v1/filters/${id}/files/${name}`, { raw: bytes, headers: { 'content-type': type } });
  const newFilter = async (name: string) => {
    const me = (await server.repos.users.findByUsername('file-owner'))!.user_id;
    const created = await owner.post(`/v1/users/${me}/filters`, {
      data: { type: 'filter', attributes: { name, description: 'uses files' } },
    });
    return Number(created.body.data.id);
  };

  beforeAll(async () => {
    server = await startTestServer({
      ingest: ['ztf-avro-alert/samples'],
      config: { filterFileMaxBytes: 64 * KIB, filterFilesUserMaxBytes: 100 * KIB },
      filterSandbox: (repos) => {
        const created = createFilterSandbox(repos);
        closeSandbox = created.close;
        return created.sandbox;
      },
    });
    owner = await signedInSession(server, 'file-owner');
    other = await signedInSession(server, 'file-other');
    admin = await signedInSession(server, 'file-admin', { admin: true });
    filterId = await newFilter('Noted');
    const created = await owner.post(`/v1/filters/${filterId}/versions`, version(CODE));
    expect(created.status).toBe(201);
    versionId = Number(created.body.data.id);
  }, 180_000);
  afterAll(async () => {
    await closeSandbox();
    await server?.close();
  });

  it('uploads, lists, downloads and deletes a file, content-addressed, the version waiting for review following it', async () => {
    const bytes = Buffer.from('first notes\n');
    const stored = await put(owner, 'notes.txt', bytes, 'text/plain');
    expect(stored.status).toBe(200);
    expect(stored.body.data).toMatchObject({
      type: 'filter_file',
      id: 'notes.txt',
      attributes: { name: 'notes.txt', size: 12, sha256: sha256(bytes) },
    });
    expect(readFileSync(path.join(filesDir(), sha256(bytes).slice(0, 2), sha256(bytes)))).toEqual(bytes);
    // A JSON file is bytes too, stored as sent.
    const json = Buffer.from('{"a": 1}');
    expect((await put(owner, 'weights.npy', json, 'application/json')).body.data.attributes.sha256).toBe(sha256(json));

    const list = await other.get(`/v1/filters/${filterId}/files`);
    expect(list.status).toBe(404); // a private filter's files, like its code
    const mine = await owner.get(`/v1/filters/${filterId}/files`);
    expect(mine.body.data.map((f: { id: string }) => f.id)).toEqual(['notes.txt', 'weights.npy']);
    expect(mine.body.meta.count).toBe(2);

    const download = await fetch(`${server.url}/v1/filters/${filterId}/files/notes.txt`, { headers: { cookie: cookieOf(admin) } });
    expect(download.status).toBe(200);
    expect(download.headers.get('etag')).toBe(`"${sha256(bytes)}"`);
    expect(download.headers.get('content-disposition')).toContain("filename*=UTF-8''notes.txt");
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);

    const pinned = await owner.get(`/v1/filters/${filterId}/versions/${versionId}/files`);
    expect(pinned.body.data.map((f: { attributes: { sha256: string } }) => f.attributes.sha256)).toEqual([sha256(bytes), sha256(json)]);
    expect(pinned.body.meta).toMatchObject({ required: ['notes.txt', 'weights.npy'], missing: [] });

    expect((await other.delete(`/v1/filters/${filterId}/files/weights.npy`)).status).toBe(404);
    expect((await owner.delete(`/v1/filters/${filterId}/files/weights.npy`)).status).toBe(204);
    expect((await owner.delete(`/v1/filters/${filterId}/files/weights.npy`)).status).toBe(404);
    expect((await owner.get(`/v1/filters/${filterId}/files/weights.npy`)).status).toBe(404);
    // No row names those bytes any more: they go to the trash (for a day: a backup copying the folder
    // after its database dump still finds them).
    expect(existsSync(path.join(filesDir(), sha256(json).slice(0, 2), sha256(json)))).toBe(false);
    expect(existsSync(path.join(filesDir(), 'trash', sha256(json)))).toBe(true);
    expect((await owner.get(`/v1/filters/${filterId}/versions/${versionId}/files`)).body.meta.missing).toEqual(['weights.npy']);
  });

  it('refuses hostile names, an empty body and a name the code does not list, saying why', async () => {
    const bytes = Buffer.from('x');
    // (A bare ".." segment never reaches a route: URL parsing removes it, whatever encodes it.)
    const cases: Array<[string, number, RegExp]> = [
      ['..%2Fx', 400, /path separator/],
      ['a%2Fb', 400, /path separator/],
      ['a%5Cb', 400, /path separator/],
      ['notes..txt', 400, /\.\./],
      ['a%0Ab', 400, /control characters/],
      ['a%00b', 400, /NUL|null|control/i],
      ['x'.repeat(300), 400, /longer than 200/],
      ['other.txt', 409, /No version of filter \d+ lists "other.txt" in REQUIRES_FILES \(it lists "notes.txt", "weights.npy"\)/],
    ];
    for (const [name, status, reason] of cases) {
      const answer = await put(owner, name, bytes);
      expect([name, answer.status]).toEqual([name, status]);
      expect(answer.body.errors[0].detail).toMatch(reason);
    }
    const empty = await put(owner, 'notes.txt', new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].detail).toContain('is empty');
    expect((await put(other, 'notes.txt', bytes)).status).toBe(404);
    expect((await owner.request('PUT', `/v1/filters/${filterId}/files/notes.txt`, { raw: bytes, csrf: false })).status).toBe(403);
  });

  it('answers 413 naming the limit: per file, and per user', async () => {
    const big = await put(owner, 'weights.npy', Buffer.alloc(64 * KIB + 1, 1));
    expect(big.status).toBe(413);
    expect(big.body.errors[0].detail).toContain('larger than 64 kB, the most one filter file may hold (ANTARES_FILTER_FILE_MAX_MB)');
    // Sent without a length (chunked): stopped by counting, not by the header.
    const chunked = await fetch(`${server.url}/v1/filters/${filterId}/files/weights.npy`, {
      method: 'PUT',
      headers: {
        cookie: cookieOf(owner),
        'x-csrf-token': owner.cookies.get('csrf_access_token')!,
        'content-type': 'application/octet-stream',
      },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 70; i++) controller.enqueue(new Uint8Array(KIB));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await (await owner.get(`/v1/filters/${filterId}/files`)).body.meta.count).toBe(1);
    // 60 kB here and 60 kB in another filter of the same user pass 100 kB together.
    expect((await put(owner, 'weights.npy', Buffer.alloc(60 * KIB, 2))).status).toBe(200);
    const second = await newFilter('Noted twice');
    expect((await owner.post(`/v1/filters/${second}/versions`, version(CODE))).status).toBe(201);
    const over = await put(owner, 'weights.npy', Buffer.alloc(60 * KIB, 3), 'application/octet-stream', second);
    expect(over.status).toBe(413);
    expect(over.body.errors[0].detail).toMatch(
      /would hold more than 100 kB, the most one user may keep \(ANTARES_FILTER_FILES_USER_MAX_MB; \d+ kB left\)/,
    );
    // Replacing a file counts its new size instead of the old one.
    expect((await put(owner, 'weights.npy', Buffer.alloc(50 * KIB, 4))).status).toBe(200);
  });

  it('leaves nothing behind when the request is cut off mid-body, and sweeps what a crash left', async () => {
    const before = (await owner.get(`/v1/filters/${filterId}/files`)).body.data;
    const tmp = path.join(filesDir(), 'tmp');
    const parts = () => (existsSync(tmp) ? readdirSync(tmp).filter((n) => n.endsWith('.part')) : []);
    const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `PUT /v1/filters/${filterId}/files/notes.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n` +
        `Content-Length: 20000\r\nCookie: ${cookieOf(owner)}\r\nX-CSRF-TOKEN: ${owner.cookies.get('csrf_access_token')}\r\n\r\n`,
    );
    socket.write(Buffer.alloc(10_000, 7));
    // Cut off once the server is writing it.
    await vi.waitFor(() => expect(parts().length).toBe(1), { timeout: 10_000 });
    socket.destroy();
    await vi.waitFor(() => expect(parts()).toEqual([]), { timeout: 10_000 });
    expect((await owner.get(`/v1/filters/${filterId}/files`)).body.data).toEqual(before);
    const half = sha256(Buffer.alloc(10_000, 7));
    expect(existsSync(path.join(filesDir(), half.slice(0, 2), half))).toBe(false);

    // A process killed mid-write leaves its .part: the next start removes it (and only old ones).
    const left = path.join(tmp, 'killed.part');
    writeFileSync(left, 'half');
    const fresh = path.join(tmp, 'writing.part');
    writeFileSync(fresh, 'now');
    utimesSync(left, new Date(Date.now() - 7_200_000), new Date(Date.now() - 7_200_000));
    const trashed = readdirSync(path.join(filesDir(), 'trash'));
    expect(await server.repos.filterFiles.store!.sweep()).toBe(1);
    expect(parts()).toEqual(['writing.part']);
    expect(readdirSync(path.join(filesDir(), 'trash'))).toEqual(trashed); // deleted less than a day ago
  });

  it('refuses to enable a version without its files, naming them; an enabled version keeps its files when they are replaced', async () => {
    const id = await newFilter('Enabled noted');
    const submitted = await owner.post(`/v1/filters/${id}/versions`, version(CODE));
    const v = submitted.body.data.id;
    expect((await admin.patch(`/v1/filters/${id}/versions/${v}`, { data: { attributes: { status: 'REVIEWED' } } })).status).toBe(200);
    const refused = await admin.patch(`/v1/filters/${id}/versions/${v}`, { data: { attributes: { status: 'ENABLED' } } });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toContain(`Version ${v} cannot be enabled: it has no file for "notes.txt", "weights.npy"`);
    // Uploaded after the review: the reviewed version does not take them; a new version does.
    expect((await put(owner, 'notes.txt', Buffer.from('a'), 'text/plain', id)).status).toBe(200);
    expect((await put(owner, 'weights.npy', Buffer.from('b'), 'text/plain', id)).status).toBe(200);
    expect((await admin.patch(`/v1/filters/${id}/versions/${v}`, { data: { attributes: { status: 'ENABLED' } } })).status).toBe(409);
    const v2 = (await owner.post(`/v1/filters/${id}/versions`, version(CODE))).body.data.id;
    for (const status of ['REVIEWED', 'ENABLED'])
      expect((await admin.patch(`/v1/filters/${id}/versions/${v2}`, { data: { attributes: { status } } })).status).toBe(200);

    const replaced = await put(owner, 'notes.txt', Buffer.from('new'), 'text/plain', id);
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.meta).toEqual({ enabled_version_keeps: { version_id: String(v2), sha256: sha256(Buffer.from('a')) } });
    const kept = (await admin.get(`/v1/filters/${id}/versions/${v2}/files`)).body.data;
    expect(kept.find((f: { id: string }) => f.id === 'notes.txt').attributes.sha256).toBe(sha256(Buffer.from('a')));
    // Its bytes stay in the folder for it, though the filter's file is now another.
    expect(existsSync(path.join(filesDir(), sha256(Buffer.from('a')).slice(0, 2), sha256(Buffer.from('a'))))).toBe(true);
  });

  it('runs the published REQUIRES_FILES example once its file is uploaded', async () => {
    const code = readFileSync(path.join(EXAMPLES, 'class_api_a_notebook_examples.py'), 'utf8');
    const id = await newFilter('Author file');
    const submitted = await owner.post(`/v1/filters/${id}/versions`, version(code, { filter_class: 'MyFilter' }));
    expect(submitted.status).toBe(201);
    const v = submitted.body.data.id;
    expect((await owner.get(`/v1/filters/${id}/versions/${v}/files`)).body.meta.missing).toEqual(['author_file_v1.txt']);
    const test = (filter?: number) =>
      owner.post('/v1/filters/test', {
        data: {
          type: 'filter_test',
          attributes: { code, filter_class: 'MyFilter', last_n: 3, ...(filter ? { filter_id: String(filter) } : {}) },
        },
      });
    const without = await test();
    expect(without.body.data.attributes.load_error.message).toContain("REQUIRES_FILES not provided: ['author_file_v1.txt']");
    expect((await put(owner, 'author_file_v1.txt', Buffer.from('an object built from bytes'), 'text/plain', id)).status).toBe(200);
    const run = await test(id);
    expect(run.status).toBe(200);
    expect(run.body.data.attributes).toMatchObject({ loaded: true, load_error: null });
    expect(run.body.data.attributes.counts.error).toBe(0);
    // Another user's code is not given this filter's files.
    expect((await other.post('/v1/filters/test', { data: { attributes: { code, filter_id: String(id) } } })).status).toBe(400);
    for (const status of ['REVIEWED', 'ENABLED'])
      expect((await admin.patch(`/v1/filters/${id}/versions/${v}`, { data: { attributes: { status } } })).status).toBe(200);
  }, 120_000);
});

function cookieOf(session: HttpSession): string {
  return [...session.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}
