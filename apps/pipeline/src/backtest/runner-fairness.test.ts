import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createTestDatabase, type TestDatabase } from '@antares/db';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { APT_INSTALL, missingSandboxPrerequisites } from '../filters/pool/index.ts';
import { expandInputs, ingestFiles } from '../ingest/ingest-files.ts';
import { simulateSurvey } from '../simulate/index.ts';
import { backtestJobs } from '../testing/backtest-jobs.ts';
import { type BacktestParams, BacktestRunner } from './runner.ts';

// Sharing the backtest runner (issue #49 pt 5, ADR 0062): three users' jobs start in turns, a slow
// filter's backtest stops at its total time budget, and a runner whose job was taken from it stops
// without writing to it again. Orders and states are asserted, never durations.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `Backtest fairness tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const QUICK = `import antares.devkit as dk
class Quick(dk.Filter):
    def run(self, locus):
        pass
`;
const SLOW = `import time, antares.devkit as dk
class Slow(dk.Filter):
    def run(self, locus):
        time.sleep(0.2)
`;
const PARAMS: BacktestParams = { from_mjd: 0, to_mjd: 1e6, search: null, max_loci: 10_000, granularity: 'alert' };

describe.skipIf(missing.length > 0)('backtest runner sharing', () => {
  let database: TestDatabase;
  let survey: string;
  const runners: BacktestRunner[] = [];
  const users: number[] = [];

  const runner = (options: ConstructorParameters<typeof BacktestRunner>[1] = {}) => {
    const r = new BacktestRunner(database.repos, {
      pollMs: 100,
      slotOffset: 680,
      limits: { locusTimeoutMs: 2000, loadTimeoutMs: 60_000 },
      ...options,
    });
    runners.push(r);
    return r;
  };
  const { queue, until, finished } = backtestJobs(() => database.repos, PARAMS);

  beforeAll(async () => {
    survey = mkdtempSync(path.join(os.tmpdir(), 'antares-backtest-fair-'));
    await simulateSurvey({ objects: 24, nights: 5, seed: 49, outDir: survey, processes: 1 });
    database = await createTestDatabase();
    await ingestFiles(database.repos, expandInputs([survey]));
    for (const name of ['fair-ann', 'fair-bob', 'fair-cyd'])
      users.push((await database.repos.users.create({ username: name, email: `${name}@example.org`, name, password_hash: 'x' }))!.user_id);
  }, 120_000);
  afterEach(async () => {
    for (const r of runners.splice(0)) await r.close();
    await sql`DELETE FROM backtest_job`.execute(database.db);
  });
  afterAll(async () => {
    await database?.close();
    if (survey) rmSync(survey, { recursive: true, force: true });
  });

  it("starts three users' jobs in turns, not in the order they were queued", async () => {
    const [ann, bob, cyd] = users;
    // Ann queued three (as an admin may) before Bob's two and Cyd's one.
    const jobs = [];
    for (const user of [ann, ann, ann, bob, bob, cyd]) jobs.push(await queue(QUICK, user, { max_loci: 2 }));
    const r = runner({ workers: 1 });
    const starts: number[] = [];
    r.subscribe((e) => e.state === 'running' && !starts.includes(e.backtest_id) && starts.push(e.backtest_id));
    r.start();
    const ends = await Promise.all(jobs.map((j) => until(j.backtest_id, finished)));
    expect(ends.map((j) => [j.state, j.error])).toEqual(Array(6).fill(['done', null]));
    const userOf = new Map(jobs.map((j) => [j.backtest_id, j.user_id]));
    expect(starts.map((id) => userOf.get(id))).toEqual([ann, bob, cyd, ann, bob, ann]);
    // Each user's own jobs still start oldest first.
    expect(starts.filter((id) => userOf.get(id) === ann)).toEqual(jobs.slice(0, 3).map((j) => j.backtest_id));
  }, 240_000);

  it('stops a backtest of a slow filter at its total time budget, saying so', async () => {
    const job = await queue(SLOW, users[0]);
    const r = runner({ timeBudgetMs: 1500 });
    r.start();
    const end = await until(job.backtest_id, finished);
    expect(end.state).toBe('failed');
    expect(end.error).toBe(
      'The backtest used up its time budget of 1.5 s, so it stopped part way: its results are those of the loci it replayed',
    );
    expect(end.loci_total).toBeGreaterThan(0);
    expect(end.loci_done).toBeLessThan(end.loci_total!);
    expect(end.results).not.toBeNull();
    expect(end.finished_at).not.toBeNull();
  }, 120_000);

  it('stops a job whose lease was taken, writing nothing more to it', async () => {
    const job = await queue(SLOW, users[1], { max_loci: 40 });
    const r = runner({ heartbeatMs: 100 });
    r.start();
    const running = await until(job.backtest_id, (j) => j.state === 'running' && j.loci_total !== null);
    // Another runner takes the job over (as after its heartbeat went stale): the lease is the new claim's.
    await sql`UPDATE backtest_job SET state = 'queued', resumes = resumes + 1 WHERE backtest_id = ${job.backtest_id}`.execute(database.db);
    const taken = (await database.repos.backtests.claimNext())!;
    expect(taken.resumes).toBe(running.resumes + 1);
    // The first runner hears of it at its next heartbeat and stops its run, without closing.
    const jobsOf = (x: BacktestRunner) => (x as unknown as { running: Map<number, unknown> }).running;
    await vi.waitFor(() => expect(jobsOf(r).size).toBe(0), { timeout: 60_000, interval: 50 });
    const after = (await database.repos.backtests.findById(job.backtest_id))!;
    expect([after.state, after.resumes, after.error, after.finished_at]).toEqual(['running', taken.resumes, null, null]);
    expect(after.loci_done).toBe(taken.loci_done);
    expect(after.steps_done).toBe(taken.steps_done);
  }, 120_000);
});
