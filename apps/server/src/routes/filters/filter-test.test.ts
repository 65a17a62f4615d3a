import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APT_INSTALL, createFilterSandbox, missingSandboxPrerequisites } from '@antares/pipeline';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { HttpSession } from '../../testing/http-session.ts';
import { hashPassword } from '../../auth/passwords.ts';

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
    await server.repos.users.create({ username: 'tester', email: 'tester@example.org', name: 'T', password_hash: await hashPassword('Galaxy2026'), admin: false });
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
      const alerts = (await server.getJson(`/v1/loci/${result.locus_id}/alerts`)).body.data as Array<{ attributes: { properties: Record<string, number> } }>;
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
    const failing = TAGGER.replace("> 10 ** 6", '>= 0');
    const report = (await user.post('/v1/filters/test', data({ code: failing, locus_ids: [locus.locus_id] }))).body.data.attributes;
    expect(report.loci).toHaveLength(1);
    expect(report.loci[0]).toMatchObject({ locus_id: locus.locus_id, status: 'error', new_tags: [] });
    expect(report.loci[0].error).toMatchObject({ type: 'ValueError', message: 'impossible' });
    expect(report.loci[0].error.traceback).toContain('raise ValueError');
    expect(report.counts).toMatchObject({ loci: 1, ok: 0, error: 1 });
    expect(report.timing.p50_ms).toBeNull();
  });

  it('reports code that fails to load instead of running it', async () => {
    const report = (await user.post('/v1/filters/test', data({ code: 'import antares.devkit as dk\nclass F(dk.Filter:\n    pass\n' }))).body.data.attributes;
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
      await server.repos.users.create({ username: 'tester2', email: 't2@example.org', name: 'T', password_hash: await hashPassword('Galaxy2026'), admin: false });
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
