import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '../../auth/passwords.ts';
import { HttpSession } from '../../testing/http-session.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// The filter API over HTTP. Code checking is stubbed here (a declared-tags reader): the real sandbox
// check is exercised by apps/pipeline/src/filters.
let server: TestServer;
const as: Record<'owner' | 'other' | 'admin' | 'anonymous', HttpSession> = {} as never;
const ids: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer({
    filterSandbox: {
      validate: async (code) =>
        code.includes('syntax error')
          ? { ok: false, message: 'SyntaxError: invalid syntax' }
          : { ok: true, outputs: { tags: [...code.matchAll(/'name': '(\w+)'/g)].map((m) => m[1]) } },
      dryRun: async () => {
        throw new Error('dry runs are tested with the real sandbox in filter-test.test.ts');
      },
    },
  });
  const hash = await hashPassword('Galaxy2026');
  for (const [name, admin] of [
    ['owner', false],
    ['other', false],
    ['admin', true],
  ] as const) {
    ids[name] = (await server.repos.users.create({
      username: `${name}-f`,
      email: `${name}@example.org`,
      name,
      password_hash: hash,
      admin,
    }))!.user_id;
    as[name] = new HttpSession(server.url);
    await as[name].post('/v1/auth/login?type=cookie', { username: `${name}-f`, password: 'Galaxy2026' });
  }
  as.anonymous = new HttpSession(server.url);
});
afterAll(async () => server?.close());

const CODE =
  "import antares.devkit as dk\nclass F(dk.Filter):\n    OUTPUT_TAGS = [{'name': 'bright_thing', 'description': 'x'}]\n    def run(self, locus):\n        locus.tag('bright_thing')\n";
const createFilter = (name: string, description = 'Finds things') =>
  as.owner.post(`/v1/users/${ids.owner}/filters`, { data: { type: 'filter', attributes: { name, description } } });

describe('filters', () => {
  it('creates filters with the spec name rules and a unique name', async () => {
    const created = await createFilter('Bright things');
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).toMatchObject({ name: 'Bright things', public: false, enabled: false });
    expect((await createFilter('bright THINGS')).body.errors[0].detail).toBe('This name is already in use, please choose another.');
    expect((await createFilter('9lives')).body.errors[0].detail).toContain('Field contains invalid characters.');
    expect((await createFilter('x'.repeat(65))).body.errors[0].detail).toContain('Field may not have more than 64 characters.');
    expect((await createFilter('Valid name', '')).body.errors[0].detail).toContain('Field is required.');
    expect((await as.anonymous.post(`/v1/users/${ids.owner}/filters`, { data: { attributes: { name: 'x' } } })).body.errors[0].detail).toBe(
      'Must be authenticated to call create_filter',
    );
  });

  it('hides private filters and their code from everyone but the owner and admins', async () => {
    const id = (await createFilter('Secret sauce')).body.data.id;
    await as.owner.post(`/v1/filters/${id}/versions`, { data: { attributes: { code: CODE, comment: 'first' } } });
    for (const who of ['owner', 'admin'] as const) expect((await as[who].get(`/v1/filters/${id}/versions`)).status).toBe(200);
    for (const who of ['other', 'anonymous'] as const) {
      expect((await as[who].get(`/v1/filters/${id}`)).status).toBe(404);
      expect((await as[who].get(`/v1/filters/${id}/versions`)).status).toBe(404);
      expect((await as[who].get('/v1/filters?page%5Blimit%5D=100')).body.data.map((f: any) => f.id)).not.toContain(id);
    }
    expect((await as.other.patch(`/v1/filters/${id}`, { data: { attributes: { public: true } } })).status).toBe(404);
    const made = await as.owner.patch(`/v1/filters/${id}`, { data: { attributes: { public: true } } });
    expect(made.body.data.attributes.public).toBe(true);
    expect((await as.other.get(`/v1/filters/${id}`)).status).toBe(200);
    expect((await as.other.patch(`/v1/filters/${id}`, { data: { attributes: { public: false } } })).status).toBe(403);
    const withOwner = await as.admin.get('/v1/filters?include=owner&sort=-created_at');
    expect(withOwner.body.included.map((u: any) => u.attributes.username)).toContain('owner-f');
  });

  it('checks versions (comment rules, code that does not load) and lists them newest first', async () => {
    const id = (await createFilter('Versioned')).body.data.id;
    const noComment = await as.owner.post(`/v1/filters/${id}/versions`, { data: { attributes: { code: CODE, comment: '' } } });
    expect(noComment.body.errors[0].detail).toContain('Field is required.');
    const longComment = await as.owner.post(`/v1/filters/${id}/versions`, {
      data: { attributes: { code: CODE, comment: 'c'.repeat(256) } },
    });
    expect(longComment.body.errors[0].detail).toContain('Field may not have more than 255 characters.');
    const broken = await as.owner.post(`/v1/filters/${id}/versions`, {
      data: { attributes: { code: 'syntax error here', comment: 'oops' } },
    });
    expect(broken.status).toBe(422);
    expect(broken.body.errors[0].detail).toContain('SyntaxError');
    await as.owner.post(`/v1/filters/${id}/versions`, { data: { attributes: { code: CODE, comment: 'one' } } });
    await as.owner.post(`/v1/filters/${id}/versions`, { data: { attributes: { code: CODE, comment: 'two' } } });
    const list = await as.owner.get(`/v1/filters/${id}/versions?sort=-created_at&page%5Blimit%5D=100`);
    expect(list.body.data.map((v: any) => v.attributes.comment)).toEqual(['two', 'one']);
    expect(list.body.data[0].attributes.status).toBe('PENDING_REVIEW');
    expect((await as.other.post(`/v1/filters/${id}/versions`, { data: { attributes: { code: CODE, comment: 'x' } } })).status).toBe(404);
  });

  it('enforces the review transitions and feedback rules; enabling lists the tags of public filters', async () => {
    const id = (await createFilter('Reviewed filter')).body.data.id;
    const version = (await as.owner.post(`/v1/filters/${id}/versions`, { data: { attributes: { code: CODE, comment: 'v1' } } })).body.data
      .id;
    const move = (who: keyof typeof as, status: string, feedback?: string) =>
      as[who].patch(`/v1/filters/${id}/versions/${version}`, { data: { attributes: { status, feedback } } });
    expect((await move('owner', 'REVIEWED')).status).toBe(403);
    expect((await move('admin', 'ENABLED')).status).toBe(409);
    expect((await move('admin', 'REVIEWED')).body.data.attributes.status).toBe('REVIEWED');
    expect((await move('admin', 'ENABLED')).body.data.attributes.status).toBe('ENABLED');
    const filter = await as.owner.get(`/v1/filters/${id}`);
    expect(filter.body.data.attributes).toMatchObject({ enabled: true, enabled_version: version });
    // Private: its tags are not listed yet.
    expect((await as.anonymous.get('/v1/tags')).body.data.map((t: any) => t.id)).not.toContain('bright_thing');
    await as.owner.patch(`/v1/filters/${id}`, { data: { attributes: { public: true } } });
    expect((await as.anonymous.get('/v1/tags')).body.data.map((t: any) => t.id)).toContain('bright_thing');
    expect((await as.anonymous.get('/v1/tags/bright_thing')).status).toBe(200);
    const runner = await as.anonymous.get('/v1/filter_runner?page%5Blimit%5D=100&page%5Boffset%5D=0');
    expect(runner.body.data.map((r: any) => r.id)).toContain('Reviewed filter');
    expect(
      (await as.admin.patch('/v1/filter_runner/Reviewed%20filter', { data: { attributes: { enabled: false } } })).body.data.attributes
        .enabled,
    ).toBe(false);
    expect((await as.owner.patch('/v1/filter_runner/Reviewed%20filter', { data: { attributes: { enabled: true } } })).status).toBe(403);

    const noFeedback = await move('admin', 'DISABLED');
    expect(noFeedback.status).toBe(400);
    expect(noFeedback.body.errors[0].detail).toBe('Feedback is required');
    expect((await move('admin', 'DISABLED', 'Too many false positives')).body.data.attributes).toMatchObject({
      status: 'DISABLED',
      feedback: 'Too many false positives',
    });
    expect((await as.owner.get(`/v1/filters/${id}`)).body.data.attributes.enabled).toBe(false);
    expect((await as.anonymous.get('/v1/tags')).body.data.map((t: any) => t.id)).not.toContain('bright_thing');
    expect((await move('admin', 'APPROVED')).status).toBe(409);
  });
});
