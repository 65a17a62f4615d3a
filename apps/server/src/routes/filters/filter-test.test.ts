import { APT_INSTALL, createFilterSandbox, missingSandboxPrerequisites } from '@antares/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '../../auth/passwords.ts';
import { HttpSession } from '../../testing/http-session.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// POST /v1/filters/test: dry runs of filter code in the real sandbox on real ingested ZTF loci.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `filter dry-run tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const TAGGER = `import antares.devkit as dk
print('loading the tagger')
class Bright(dk.Filter):
    OUTPUT_TAGS = [{'name': 'dry_bright', 'description': 'brighter than 18.5'}]
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'dry_min_mag', 'type': 'float', 'description': 'brightest magnitude'}]
    def run(self, locus):
        mags = [a.properties['ant_mag'] for a in locus.alerts if a.properties.get('ant_mag') is not None]
        print('saw', len(mags), 'magnitudes')
        if locus.properties.get('num_alerts', 0) > 10 ** 6:
            raise ValueError('impossible')
        locus.properties['dry_min_mag'] = min(mags)
        if min(mags) < 18.5:
            locus.tag('dry_bright')
`;
const data = (attributes: Record<string, unknown>) => ({ data: { type: 'filter_test', attributes } });

describe.skipIf(missing.length > 0)('filter dry runs', () => {
  let server: TestServer;
  let closeSandbox = async () => {};
  let user: HttpSession;

  beforeAll(async () => {
    server = await startTestServer({
      ingest: ['ztf-avro-alert/samples', 'alerce'],
      filterSandbox: (repos) => {
        const created = createFilterSandbox(repos);
        closeSandbox = created.close;
        return created.sandbox;
      },
    });
    await server.repos.users.create({
      username: 'tester',
      email: 'tester@example.org',
      name: 'T',
      password_hash: await hashPassword('Galaxy2026'),
      admin: false,
    });
    user = new HttpSession(server.url);
    await user.post('/v1/auth/login?type=cookie', { username: 'tester', password: 'Galaxy2026' });
  }, 180_000);
  afterAll(async () => {
    await closeSandbox();
    await server?.close();
  });

  it('runs code on the newest loci with two or more measurements and reports tags, properties, stdout and timing', async () => {
    const response = await user.post('/v1/filters/test', data({ code: TAGGER, last_n: 5 }));
    expect(response.status).toBe(200);
    const report = response.body.data.attributes;
    expect(response.body.data.type).toBe('filter_test');
    expect(report.loaded).toBe(true);
    expect(report.stdout).toContain('loading the tagger');
    expect(report.outputs.tags).toEqual([{ name: 'dry_bright' }]);
    expect(report.loci).toHaveLength(5);
    expect(report.counts).toMatchObject({ loci: 5, ok: 5, error: 0 });
    // Each locus' result is checked against its alerts read through the public API.
    for (const result of report.loci) {
      const alerts = (await server.getJson(`/v1/loci/${result.locus_id}/alerts`)).body.data as Array<{
        attributes: { properties: Record<string, number> };
      }>;
      const mags = alerts.map((a) => a.attributes.properties.ant_mag).filter((m) => m !== undefined && m !== null);
      expect(mags.length).toBeGreaterThanOrEqual(2);
      expect(result.new_properties.dry_min_mag).toBeCloseTo(Math.min(...mags), 6);
      expect(result.new_tags).toEqual(Math.min(...mags) < 18.5 ? ['dry_bright'] : []);
      expect(result.stdout).toContain(`saw ${mags.length} magnitudes`);
      expect(result.duration_ms).toBeGreaterThan(0);
    }
    expect(report.counts.tagged).toBe(report.loci.filter((l: { new_tags: string[] }) => l.new_tags.length > 0).length);
    expect(report.timing.p50_ms).toBeLessThanOrEqual(report.timing.p99_ms);
    // Nothing is stored by a dry run.
    const stored = await server.repos.loci.findMany(report.loci.map((l: { locus_id: string }) => l.locus_id));
    expect(stored.every((l) => !l.tags.includes('dry_bright') && l.properties.dry_min_mag === undefined)).toBe(true);
  });

  it('runs on given locus ids and reports a failing locus with its traceback', async () => {
    const [locus] = await server.repos.loci.newestForFilters(1, 2);
    const failing = TAGGER.replace('> 10 ** 6', '>= 0');
    const report = (await user.post('/v1/filters/test', data({ code: failing, locus_ids: [locus.locus_id] }))).body.data.attributes;
    expect(report.loci).toHaveLength(1);
    expect(report.loci[0]).toMatchObject({ locus_id: locus.locus_id, status: 'error', new_tags: [] });
    expect(report.loci[0].error).toMatchObject({ type: 'ValueError', message: 'impossible' });
    expect(report.loci[0].error.traceback).toContain('raise ValueError');
    expect(report.counts).toMatchObject({ loci: 1, ok: 0, error: 1 });
    expect(report.timing.p50_ms).toBeNull();
  });

  it('runs the last filter class of a notebook export, or the one named by filter_class, and says which it found', async () => {
    const notebook = `import antares.devkit as dk
class Helper:
    limit = 18.5
class Draft(dk.Filter):
    OUTPUT_TAGS = [{'name': 'nb_faint', 'description': 'a draft'}]
    def run(self, locus):
        if locus.alert.properties.get('ant_mag', 0) > Helper.limit:
            locus.tag('nb_faint')
class Final(dk.Filter):
    OUTPUT_TAGS = [{'name': 'nb_bright', 'description': 'the one meant'}]
    def run(self, locus):
        if locus.alert.properties.get('ant_mag', 99) <= Helper.limit:
            locus.tag('nb_bright')
`;
    const loci = await server.repos.loci.newestForFilters(6, 2);
    const ids = loci.map((l) => l.locus_id);
    const byDefault = (await user.post('/v1/filters/test', data({ code: notebook, locus_ids: ids }))).body.data.attributes;
    expect(byDefault.outputs).toMatchObject({ class_name: 'Final', filter_classes: ['Draft', 'Final'], tags: [{ name: 'nb_bright' }] });
    const named = (await user.post('/v1/filters/test', data({ code: notebook, locus_ids: ids, filter_class: 'Draft' }))).body.data
      .attributes;
    expect(named.outputs).toMatchObject({ class_name: 'Draft', filter_classes: ['Draft', 'Final'], tags: [{ name: 'nb_faint' }] });
    // The triggering alert is the newest one: each locus' tag follows from its magnitude, read through the API.
    for (const [i, id] of ids.entries()) {
      const alerts = (await server.getJson(`/v1/loci/${id}/alerts`)).body.data as Array<{
        attributes: { mjd: number; properties: Record<string, number> };
      }>;
      const newest = alerts.reduce((a, b) => (b.attributes.mjd > a.attributes.mjd ? b : a));
      const mag = newest.attributes.properties.ant_mag;
      expect(byDefault.loci[i].new_tags).toEqual(mag !== undefined && mag <= 18.5 ? ['nb_bright'] : []);
      expect(named.loci[i].new_tags).toEqual(mag !== undefined && mag > 18.5 ? ['nb_faint'] : []);
    }
    const unknown = (await user.post('/v1/filters/test', data({ code: notebook, locus_ids: ids, filter_class: 'Helper2' }))).body.data
      .attributes;
    expect(unknown.loaded).toBe(false);
    expect(unknown.load_error.message).toBe("Helper2 is not defined by the filter code (filters found: ['Draft', 'Final'])");
  });

  it('stores the filter class a new version runs: as named, else the one the sandbox chose; an unknown one is 422', async () => {
    const code =
      'import antares.devkit as dk\nclass First(dk.Filter):\n    pass\ndef helper(x, y):\n    pass\nclass Second(dk.Filter):\n    pass\n';
    const userId = (await server.repos.users.findByUsername('tester'))!.user_id;
    const filter = await user.post(`/v1/users/${userId}/filters`, {
      data: { type: 'filter', attributes: { name: 'Two classes', description: 'a notebook export' } },
    });
    expect(filter.status).toBe(201);
    const versions = `/v1/filters/${filter.body.data.id}/versions`;
    const post = (attributes: Record<string, unknown>) =>
      user.post(versions, { data: { type: 'filter_version', attributes: { code, comment: 'v', ...attributes } } });
    const byDefault = await post({});
    expect(byDefault.status).toBe(201);
    expect(byDefault.body.data.attributes.filter_class).toBe('Second');
    expect(byDefault.body.data.attributes.declared_outputs).toMatchObject({ class_name: 'Second', filter_classes: ['First', 'Second'] });
    const named = await post({ filter_class: 'First' });
    expect(named.body.data.attributes).toMatchObject({ filter_class: 'First', declared_outputs: { class_name: 'First' } });
    expect((await user.get(`${versions}/${named.body.data.id}`)).body.data.attributes.filter_class).toBe('First');
    const unknown = await post({ filter_class: 'Third' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].detail).toContain("Third is not defined by the filter code (filters found: ['First', 'Second'])");
    expect((await post({ filter_class: 'not a name' })).body.errors[0].detail).toBe('filter_class: Field contains invalid characters.');
  });

  it('reports code that fails to load instead of running it', async () => {
    const report = (await user.post('/v1/filters/test', data({ code: 'import antares.devkit as dk\nclass F(dk.Filter:\n    pass\n' }))).body
      .data.attributes;
    expect(report.loaded).toBe(false);
    expect(report.load_error.type).toBe('SyntaxError');
    expect(report.loci).toEqual([]);
  });

  it('refuses bad requests with JSON:API errors', async () => {
    const anonymous = new HttpSession(server.url);
    expect((await anonymous.post('/v1/filters/test', data({ code: TAGGER }))).status).toBe(401);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'code: Field is required.'],
      [{ code: TAGGER, last_n: 0 }, 'last_n must be a whole number from 1 to 100'],
      [{ code: TAGGER, last_n: 'many' }, 'last_n must be a whole number from 1 to 100'],
      [{ code: TAGGER, locus_ids: [] }, 'locus_ids must be a non-empty list of locus ids'],
      [{ code: TAGGER, locus_ids: ['ANT_NO_SUCH_LOCUS'] }, 'No locus with id "ANT_NO_SUCH_LOCUS"'],
      [{ code: TAGGER, filter_class: 'Bright; import os' }, 'filter_class: Field contains invalid characters.'],
      [{ code: TAGGER, filter_class: 7 }, 'filter_class must be a string'],
      [{ code: TAGGER, filter_class: 'B'.repeat(256) }, 'filter_class: Field may not have more than 255 characters.'],
    ];
    for (const [attributes, detail] of cases) {
      const response = await user.post('/v1/filters/test', data(attributes));
      expect(response.status, JSON.stringify(attributes)).toBe(400);
      expect(response.body.errors[0].detail).toBe(detail);
    }
  });
});

describe('filter dry runs without a sandbox', () => {
  it('answers 503 with a JSON:API error', async () => {
    const server = await startTestServer();
    try {
      await server.repos.users.create({
        username: 'tester2',
        email: 't2@example.org',
        name: 'T',
        password_hash: await hashPassword('Galaxy2026'),
        admin: false,
      });
      const user = new HttpSession(server.url);
      await user.post('/v1/auth/login?type=cookie', { username: 'tester2', password: 'Galaxy2026' });
      const response = await user.post('/v1/filters/test', data({ code: TAGGER, last_n: 1 }));
      expect(response.status).toBe(503);
      expect(response.body.errors[0].detail).toContain('sandbox is not available');
    } finally {
      await server.close();
    }
  });
});
