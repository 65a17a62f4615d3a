import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { openDatabase, type OpenedDatabase } from './open.ts';
import { Repositories } from './repositories/index.ts';
import { createTestDatabase, type TestDatabase } from './testing.ts';

// How backtest runners take jobs (ADR 0062): users take turns, two runners never take one job (a
// second connection pool on a PostgreSQL server, the one database on PGlite), and a runner whose job
// was taken back holds no lease on it any more.
let database: TestDatabase;
let second: OpenedDatabase | undefined;
let runnerB: Repositories;
const users: Record<string, number> = {};

beforeAll(async () => {
  database = await createTestDatabase();
  second = database.url ? await openDatabase({ databaseUrl: database.url, poolSize: 2 }) : undefined;
  runnerB = second ? new Repositories(second.db, second.kind) : database.repos;
  for (const name of ['ann', 'bob', 'cyd'])
    users[name] = (await database.repos.users.create({
      username: `claims-${name}`,
      email: `${name}@example.org`,
      name,
      password_hash: 'x',
    }))!.user_id;
});

afterEach(async () => {
  await sql`DELETE FROM backtest_job`.execute(database.db);
});

afterAll(async () => {
  await second?.close();
  await database?.close();
});

const queue = (user: string) =>
  database.repos.backtests.create({
    user_id: users[user],
    filter_id: null,
    filter_version_id: null,
    code: 'pass',
    filter_class: null,
    params: { from_mjd: 0, to_mjd: 1, search: null, max_loci: 1, granularity: 'alert' },
  });
const nameOf = (userId: number) => Object.keys(users).find((n) => users[n] === userId);

describe('backtest claims', () => {
  it('gives users turns round-robin, not in the order their jobs came', async () => {
    // Ann (an admin may queue several) queued three before Bob and Cyd queued theirs.
    for (const user of ['ann', 'ann', 'ann', 'bob', 'bob', 'cyd', 'cyd', 'cyd']) await queue(user);
    const order: string[] = [];
    for (;;) {
      const job = await database.repos.backtests.claimNext();
      if (!job) break;
      order.push(nameOf(job.user_id)!);
      await database.repos.backtests.finish(job.backtest_id, 'done', 1, {}, job.resumes);
    }
    expect(order).toEqual(['ann', 'bob', 'cyd', 'ann', 'bob', 'cyd', 'ann', 'cyd']);
  });

  it('gives the next worker to a user with nothing running before one with a job running', async () => {
    for (const user of ['ann', 'ann', 'bob']) await queue(user);
    // Ann has had a turn long ago: still, with one job of hers running, Bob's comes first.
    const first = (await database.repos.backtests.claimNext())!;
    const next = (await database.repos.backtests.claimNext())!;
    expect([nameOf(first.user_id), nameOf(next.user_id)]).toEqual(['ann', 'bob']);
    expect(nameOf((await database.repos.backtests.claimNext())!.user_id)).toBe('ann');
  });

  it('never gives one job to two runners claiming at once', async () => {
    const ids = new Set<number>();
    for (let i = 0; i < 24; i++) ids.add((await queue(['ann', 'bob', 'cyd'][i % 3])).backtest_id);
    const claimAll = async (repos: Repositories) => {
      const taken: number[] = [];
      for (let job = await repos.backtests.claimNext(); job; job = await repos.backtests.claimNext()) taken.push(job.backtest_id);
      return taken;
    };
    // Two runners, each with two claims in flight at once.
    const lists = await Promise.all([claimAll(database.repos), claimAll(database.repos), claimAll(runnerB), claimAll(runnerB)]);
    const all = lists.flat();
    expect(all.length).toBe(ids.size);
    expect(new Set(all)).toEqual(ids);
    if (second) expect(lists[2].length + lists[3].length).toBeGreaterThan(0);
  });

  it('takes the lease from a runner whose job was recovered: its heartbeat, saves, finish and requeue change nothing', async () => {
    const created = await queue('ann');
    const job = (await database.repos.backtests.claimNext())!;
    const lease = job.resumes;
    expect(await database.repos.backtests.heartbeat(job.backtest_id, lease)).toBe('ok');
    // Its heartbeat went stale (a round that outlasted it, or a paused process): recovered and taken by runner B.
    await sql`UPDATE backtest_job SET heartbeat_at = now() - interval '1 minute' WHERE backtest_id = ${created.backtest_id}`.execute(
      database.db,
    );
    expect((await runnerB.backtests.recoverStale(30, 3)).resumed).toEqual([created.backtest_id]);
    const taken = (await runnerB.backtests.claimNext())!;
    expect(taken.backtest_id).toBe(created.backtest_id);
    expect(taken.resumes).toBe(lease + 1);

    const record = { locus_id: 'ANT2020aaaaaaaaaaaa', tags: [], outcome: { steps: 1 } };
    expect(await database.repos.backtests.heartbeat(job.backtest_id, lease)).toBe('lost');
    expect(await database.repos.backtests.saveLoci(job.backtest_id, [record], { loci_done: 1, steps_done: 5 }, lease)).toBe(true);
    await database.repos.backtests.finish(job.backtest_id, 'failed', 1, { error: 'stale runner' }, lease);
    await database.repos.backtests.requeue(job.backtest_id, lease);
    let row = (await database.repos.backtests.findById(job.backtest_id))!;
    expect([row.state, row.error, row.loci_done, row.resumes]).toEqual(['running', null, 0, lease + 1]);
    expect((await database.repos.backtests.doneLoci(job.backtest_id)).size).toBe(0);

    // The new holder's lease works.
    expect(await runnerB.backtests.heartbeat(taken.backtest_id, taken.resumes)).toBe('ok');
    expect(await runnerB.backtests.saveLoci(taken.backtest_id, [record], { loci_done: 1, steps_done: 5 }, taken.resumes)).toBe(false);
    await runnerB.backtests.requestCancel(taken.backtest_id, 1);
    expect(await runnerB.backtests.heartbeat(taken.backtest_id, taken.resumes)).toBe('cancel');
    await runnerB.backtests.finish(taken.backtest_id, 'cancelled', 1, { error: 'Cancelled' }, taken.resumes);
    row = (await database.repos.backtests.findById(job.backtest_id))!;
    expect([row.state, row.loci_done]).toEqual(['cancelled', 1]);
    expect([...(await database.repos.backtests.doneLoci(job.backtest_id))]).toEqual([record.locus_id]);
  });
});
