import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type BacktestJobRow, compileLocusSearch, createTestDatabase, type TestDatabase } from '@antares/db';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { APT_INSTALL, missingSandboxPrerequisites } from '../filters/pool/index.ts';
import { expandInputs, ingestFiles } from '../ingest/ingest-files.ts';
import { simulateSurvey } from '../simulate/index.ts';
import { backtestJobs } from '../testing/backtest-jobs.ts';
import type { BacktestResults } from './results.ts';
import { type BacktestParams, BacktestRunner } from './runner.ts';

// Backtest jobs (issue #19 pt 2): queued, run in the background, cancelled, resumed after a restart,
// stopped on a hostile filter, two users' at once; results as a reviewer reads them.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `Backtest job tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const TAGGER = `import antares.devkit as dk
class Bright(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'bt_n', 'type': 'int', 'description': 'measurements'},
                               {'name': 'bt_band', 'type': 'str', 'description': 'band of the newest'}]
    OUTPUT_TAGS = [{'name': 'bt_three', 'description': 'three or more'}]
    def run(self, locus):
        n = locus.properties['num_mag_values']
        locus.properties['bt_n'] = n
        locus.properties['bt_band'] = str(locus.alert.properties.get('ant_passband'))
        if n >= 3:
            locus.tag('bt_three')
        if n == 4:
            raise ValueError('four is unlucky')
`;
const SLOW = TAGGER.replace(
  "        n = locus.properties['num_mag_values']",
  "        import time\n        time.sleep(0.03)\n        n = locus.properties['num_mag_values']",
);
const HUNG = `import antares.devkit as dk
class Hung(dk.Filter):
    def run(self, locus):
        while True:
            pass
`;
const PARAMS: BacktestParams = { from_mjd: 0, to_mjd: 1e6, search: null, max_loci: 10_000, granularity: 'alert' };

describe.skipIf(missing.length > 0)('backtest jobs', () => {
  let database: TestDatabase;
  let survey: string;
  const runners: BacktestRunner[] = [];
  const users: number[] = [];

  const runner = (options: ConstructorParameters<typeof BacktestRunner>[1] = {}) => {
    const r = new BacktestRunner(database.repos, { pollMs: 100, slotOffset: 640, limits: { locusTimeoutMs: 1000 }, ...options });
    runners.push(r);
    r.start();
    return r;
  };
  const jobs = backtestJobs(() => database.repos, PARAMS);
  const queue = (code: string, user = users[0], params: Partial<BacktestParams> = {}) => jobs.queue(code, user, params);
  const { until, finished } = jobs;

  beforeAll(async () => {
    survey = mkdtempSync(path.join(os.tmpdir(), 'antares-backtest-jobs-'));
    await simulateSurvey({ objects: 40, nights: 6, seed: 32, outDir: survey, processes: 1 });
    database = await createTestDatabase();
    await ingestFiles(database.repos, expandInputs([survey]));
    for (const name of ['bt-one', 'bt-two'])
      users.push((await database.repos.users.create({ username: name, email: `${name}@example.org`, name, password_hash: 'x' }))!.user_id);
  }, 120_000);
  // Each test's runners stop with it: a runner left polling would take the next test's jobs.
  afterEach(async () => {
    for (const r of runners.splice(0)) await r.close();
  });
  afterAll(async () => {
    await database?.close();
    if (survey) rmSync(survey, { recursive: true, force: true });
  });

  let reference: BacktestJobRow;

  it('runs a queued job to its results, with the tagged loci searchable and nothing written to the loci', async () => {
    const r = runner();
    const events: string[] = [];
    const off = r.subscribe((e) => events.push(e.state));
    const job = await queue(TAGGER);
    r.wake();
    reference = await until(job.backtest_id, finished);
    // The runner tells a state after storing it: its last event may come just after the poll saw it stored.
    await vi.waitFor(() => expect(events.at(-1)).toBe(reference.state), { timeout: 10_000 });
    off();
    expect([reference.state, reference.error]).toEqual(['done', null]);
    expect(reference.loci_done).toBe(reference.loci_total);
    expect(events).toContain('running');
    expect(events.at(-1)).toBe('done');
    const results = reference.results as unknown as BacktestResults;
    expect(results.steps).toBe(Number(reference.steps_done));
    expect(results.tagged_loci).toBeGreaterThan(0);
    expect(results.nights.length).toBeGreaterThan(2);
    expect(results.nights.reduce((n, x) => n + x.steps, 0)).toBe(results.steps);
    expect(results.first_tags.length).toBe(results.tagged_loci);
    expect(results.errors.map((e) => e.type)).toEqual(['ValueError']);
    expect(results.errors[0].example.traceback).toContain('four is unlucky');
    expect(results.cost.per_locus_ms.p50).toBeGreaterThan(0);
    expect(results.cost.projected_cpu_share).toBeGreaterThan(0);
    // Against Level 2's budget (the default limits; no filter enabled here, so it would have it all) and yields.
    const tagged = results.nights.reduce((n, x) => n + x.alerts_tagged, 0);
    expect(results.budget).toMatchObject({
      limits: { seconds_per_10k: 30, yield_average_per_10k: 20, yield_max_per_10k: 100 },
      enabled_filters: 1,
      allowed_share: 1,
    });
    expect(results.budget!.projected_yield_per_10k).toBeCloseTo((tagged * 10_000) / results.steps, 2);
    expect(results.budget!.projected_share).toBeCloseTo(results.budget!.seconds_per_10k_alerts! / 30, 3);
    expect(results.properties.map((p) => [p.name, p.kind])).toEqual([
      ['bt_band', 'text'],
      ['bt_n', 'number'],
    ]);
    // The locus list's backtest_id term finds exactly the tagged loci; the loci themselves are untouched.
    const page = await database.repos.loci.search({
      search: compileLocusSearch({ query: { bool: { filter: [{ term: { backtest_id: reference.backtest_id } }] } } }),
      sort: [],
      limit: 1000,
      offset: 0,
    });
    expect(page.rows.map((l) => l.locus_id).sort()).toEqual(results.first_tags.map((t) => t.locus_id).sort());
    const byTag = compileLocusSearch({ query: { term: { backtest_id: `${reference.backtest_id}:bt_three` } } });
    expect((await database.repos.loci.countMatches(byTag)).count).toBe(results.tagged_loci);
    const written = await sql<{ n: number }>`SELECT count(*)::int AS n FROM locus WHERE cardinality(tags) > 0`.execute(database.db);
    expect(written.rows[0].n).toBe(0);
  }, 180_000);

  it('is cancelled part way, keeping what it did', async () => {
    const r = runner();
    const job = await queue(SLOW);
    r.wake();
    await until(job.backtest_id, (j) => j.loci_done > 0 || Number(j.steps_done) > 0);
    await database.repos.backtests.requestCancel(job.backtest_id, 7);
    const end = await until(job.backtest_id, finished);
    expect(end.state).toBe('cancelled');
    expect(end.loci_done).toBeLessThan(end.loci_total!);
    expect(end.expires_at).not.toBeNull();
  }, 180_000);

  it('resumes after a restart, stopped cleanly or killed, with every locus replayed once', async () => {
    const first = runner();
    const job = await queue(SLOW);
    first.wake();
    await until(job.backtest_id, (j) => j.loci_done > 0);
    await first.close(); // a clean stop: queued again at once
    expect((await database.repos.backtests.findById(job.backtest_id))!.state).toBe('queued');
    // A killed server leaves it running without a heartbeat: taken up again once that is stale.
    await sql`UPDATE backtest_job SET state = 'running', heartbeat_at = now() - interval '1 minute' WHERE backtest_id = ${job.backtest_id}`.execute(
      database.db,
    );
    runner({ staleSeconds: 30 });
    const end = await until(job.backtest_id, finished);
    expect(end.state).toBe('done');
    expect(end.resumes).toBe(2);
    expect(end.loci_done).toBe(reference.loci_total);
    const results = end.results as unknown as BacktestResults;
    const expected = reference.results as unknown as BacktestResults;
    expect(results.steps).toBe(expected.steps);
    expect(results.nights).toEqual(expected.nights);
  }, 180_000);

  it('stops a hung filter with the reason, fails a filter that does not load, and runs two users at once', async () => {
    const r = runner({ workers: 2 });
    const hung = await queue(HUNG);
    const broken = await queue('import antares.devkit as dk\nclass Broken(dk.Filter):\n    def run(self, locus)\n        pass\n', users[1]);
    r.wake();
    const [h, b] = await Promise.all([until(hung.backtest_id, finished), until(broken.backtest_id, finished)]);
    expect(h.state).toBe('failed');
    expect(h.error).toMatch(/timed out on 3 alert-steps in a row/);
    expect(b.state).toBe('failed');
    expect(b.error).toMatch(/did not load: SyntaxError/);
    const [one, two] = await Promise.all([queue(TAGGER, users[0]), queue(TAGGER, users[1], { granularity: 'night', max_loci: 5 })]);
    r.wake();
    const [x, y] = await Promise.all([until(one.backtest_id, finished), until(two.backtest_id, finished)]);
    expect([x.state, y.state]).toEqual(['done', 'done']);
    expect(y.loci_total).toBe(5);
    expect((x.results as unknown as BacktestResults).tagged_loci).toBe((reference.results as unknown as BacktestResults).tagged_loci);
  }, 180_000);
});
