import { APT_INSTALL, missingSandboxPrerequisites } from '@antares/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '../../auth/passwords.ts';
import { HttpSession } from '../../testing/http-session.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// Filter backtests over HTTP (issue #19): queued jobs on real ZTF alerts, progress as server-sent
// events, results, the tagged loci through /v1/loci, two versions compared, one job per user, cancel.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `backtest API tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const version = (threshold: number) => `import antares.devkit as dk
class Bright(dk.Filter):
    OUTPUT_TAGS = [{'name': 'bt_bright', 'description': 'brighter than ${threshold}'}]
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'bt_min_mag', 'type': 'float', 'description': 'brightest so far'}]
    def run(self, locus):
        mags = [a.properties['ant_mag'] for a in locus.alerts if a.properties.get('ant_mag') is not None]
        locus.properties['bt_min_mag'] = min(mags)
        if min(mags) < ${threshold}:
            locus.tag('bt_bright')
`;
const SLOW = `import time
import antares.devkit as dk
class Slow(dk.Filter):
    def run(self, locus):
        time.sleep(0.2)
`;
const body = (attributes: Record<string, unknown>) => ({ data: { type: 'backtest', attributes } });

describe.skipIf(missing.length > 0)('filter backtests over HTTP', () => {
  let server: TestServer;
  const sessions: Record<'owner' | 'other' | 'admin', HttpSession> = {} as never;
  let filterId = 0;
  const versions: number[] = [];

  /** Follows a job's events to its end; the last event's document. */
  const follow = async (session: HttpSession, id: string) => {
    const events = await session.get(`/v1/backtests/${id}/events`);
    expect(events.status).toBe(200);
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    const documents = String(events.body)
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)));
    expect(documents.length).toBeGreaterThan(0);
    return documents;
  };

  beforeAll(async () => {
    server = await startTestServer({ ingest: ['ztf-avro-alert/samples', 'alerce'] });
    for (const name of ['owner', 'other', 'admin'] as const) {
      await server.repos.users.create({
        username: `bt-${name}`,
        email: `bt-${name}@example.org`,
        name,
        password_hash: await hashPassword('Galaxy2026'),
        admin: name === 'admin',
      });
      sessions[name] = new HttpSession(server.url);
      await sessions[name].post('/v1/auth/login?type=cookie', { username: `bt-${name}`, password: 'Galaxy2026' });
    }
    const owner = (await server.repos.users.findByUsername('bt-owner'))!;
    const filter = (await server.repos.filters.create({ user_id: owner.user_id, name: 'Backtested', description: 'bright' }))!;
    filterId = filter.filter_id;
    for (const threshold of [18, 18.5])
      versions.push(
        (
          await server.repos.filters.createVersion({
            filter_id: filterId,
            code: version(threshold),
            comment: `${threshold}`,
            declared_outputs: null,
          })
        ).filter_version_id,
      );
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  let first = '';
  let second = '';

  it('runs a version over the archive as a job, with progress events, results and the tagged loci as a search', async () => {
    const created = await sessions.owner.post(`/v1/filters/${filterId}/versions/${versions[0]}/backtests`, body({ max_loci: 500 }));
    expect(created.status).toBe(202);
    expect(created.body.data.attributes.state).toBe('queued');
    first = created.body.data.id;
    // One job at a time per user.
    const again = await sessions.owner.post(`/v1/filters/${filterId}/versions/${versions[1]}/backtests`, body({}));
    expect(again.status).toBe(429);
    expect(again.body.errors[0].detail).toContain(`id ${first}`);
    // Someone else's private filter is not there for them; its backtest neither.
    expect((await sessions.other.post(`/v1/filters/${filterId}/versions/${versions[0]}/backtests`, body({}))).status).toBe(404);

    const events = await follow(sessions.owner, first);
    const last = events.at(-1).data;
    expect(last.attributes.state).toBe('done');
    expect(last.attributes.progress.loci_done).toBe(last.attributes.progress.loci_total);
    expect(last.attributes.progress.fraction).toBe(1);
    const results = last.attributes.results;
    expect(results.loci_replayed).toBe(last.attributes.progress.loci_total);
    expect(results.steps).toBeGreaterThanOrEqual(results.loci_replayed);
    expect(results.tagged_loci).toBeGreaterThan(0);
    expect(results.nights.length).toBeGreaterThan(0);
    expect(results.projection.by_tag.bt_bright).toBeGreaterThan(0);
    expect(results.properties[0]).toMatchObject({ name: 'bt_min_mag', kind: 'number' });
    expect(results.cost.per_locus_ms.p99).toBeGreaterThan(0);

    const job = await sessions.owner.get(`/v1/filters/${filterId}/versions/${versions[0]}/backtests/${first}`);
    expect(job.status).toBe(200);
    expect(job.body.data.attributes.results).toEqual(results);
    expect((await sessions.other.get(`/v1/backtests/${first}`)).status).toBe(404);
    expect((await sessions.admin.get(`/v1/backtests/${first}`)).status).toBe(200);
    const loci = await server.getJson(job.body.data.links.tagged_loci);
    expect(loci.status).toBe(200);
    expect(loci.body.meta.count).toBe(results.tagged_loci);
    expect(loci.body.data.map((l: { id: string }) => l.id).sort()).toEqual(
      results.first_tags.map((t: { locus_id: string }) => t.locus_id).sort(),
    );
    // The loci carry none of it.
    expect(loci.body.data.every((l: { attributes: { tags: string[] } }) => !l.attributes.tags.includes('bt_bright'))).toBe(true);
  }, 180_000);

  it("compares two versions' tagged loci, and runs two users' jobs at once", async () => {
    const [mine, theirs] = await Promise.all([
      sessions.owner.post(`/v1/filters/${filterId}/versions/${versions[1]}/backtests`, body({ max_loci: 500 })),
      sessions.other.post('/v1/filters/test/backtests', body({ code: version(18.5), max_loci: 500, granularity: 'night' })),
    ]);
    expect([mine.status, theirs.status]).toEqual([202, 202]);
    second = mine.body.data.id;
    const [a, b] = await Promise.all([follow(sessions.owner, second), follow(sessions.other, theirs.body.data.id)]);
    expect([a.at(-1).data.attributes.state, b.at(-1).data.attributes.state]).toEqual(['done', 'done']);
    const list = await sessions.owner.get(`/v1/filters/${filterId}/versions/${versions[1]}/backtests`);
    expect(list.body.data.map((j: { id: string }) => j.id)).toEqual([second]);

    const comparison = await sessions.owner.get(`/v1/backtests/${first}/comparison/${second}`);
    expect(comparison.status).toBe(200);
    const c = comparison.body.data.attributes;
    const firstResults = (await sessions.owner.get(`/v1/backtests/${first}`)).body.data.attributes.results;
    const secondResults = a.at(-1).data.attributes.results;
    // A lower threshold tags a subset of what a higher one does.
    expect(c.only_first.count).toBe(0);
    expect(c.both.count).toBe(firstResults.tagged_loci);
    expect(c.both.count + c.only_second.count).toBe(secondResults.tagged_loci);
    expect(c.only_second.count).toBeGreaterThan(0);
    const onlyNew = await server.getJson(
      `/v1/loci?elasticsearch_query[locus_listing]=${encodeURIComponent(JSON.stringify(c.only_second.query))}&page[limit]=1000`,
    );
    expect(onlyNew.body.data.map((l: { id: string }) => l.id).sort()).toEqual([...c.only_second.locus_ids].sort());
    expect((await sessions.other.get(`/v1/backtests/${first}/comparison/${second}`)).status).toBe(404);
  }, 180_000);

  it('is cancelled on request, and refuses bad requests with 400', async () => {
    const created = await sessions.other.post('/v1/filters/test/backtests', body({ code: SLOW }));
    expect(created.status).toBe(202);
    const id = created.body.data.id;
    expect((await sessions.owner.delete(`/v1/backtests/${id}`)).status).toBe(404);
    const cancelled = await sessions.other.delete(`/v1/backtests/${id}`);
    expect(cancelled.status).toBe(200);
    const end = (await follow(sessions.other, id)).at(-1).data.attributes;
    expect(end.state).toBe('cancelled');
    for (const [attributes, message] of [
      [{ code: '' }, 'code'],
      [{ code: SLOW, from_mjd: 60000, to_mjd: 59000 }, 'from_mjd'],
      [{ code: SLOW, max_loci: 10_000_000 }, 'max_loci'],
      [{ code: SLOW, granularity: 'hour' }, 'granularity'],
      [{ code: SLOW, elasticsearch_query: { query: { nonsense: {} } } }, 'nonsense'],
    ] as const) {
      const refused = await sessions.other.post('/v1/filters/test/backtests', body(attributes));
      expect(refused.status, JSON.stringify(attributes)).toBe(400);
      expect(refused.body.errors[0].detail).toContain(message);
    }
  }, 180_000);
});
