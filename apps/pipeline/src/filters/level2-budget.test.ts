import { DEFAULT_FILTER_BUDGET, type FilterBudgetLimits } from '@antares/contract';
import { createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ChatMessage } from '../sinks/chat.ts';
import { type BudgetedFilter, Level2Budget } from './level2-budget.ts';
import type { LocusReport } from './pool/index.ts';

// The accounting alone, on a real database, with reports made here and a clock stepped by hand.
const report = (t: number, tags: string[] = []): LocusReport => ({
  locus_id: 'ANT2026aaaaaaaaaaaa',
  status: 'ok',
  t,
  new_locus_properties: {},
  new_alert_properties: {},
  new_tags: tags,
  raised_halt: false,
  stdout: '',
  stderr: '',
});

describe('Level 2 budgets and yields', () => {
  let database: TestDatabase;
  let now: Date;
  const told: ChatMessage[] = [];
  const limits: FilterBudgetLimits = { ...DEFAULT_FILTER_BUDGET, windowSeconds: 60, pauseAfterWindows: 2 };
  const budget = (adminChannel = '#antares-admins') =>
    new Level2Budget(database.repos, {
      limits,
      clock: () => now,
      adminChannel,
      notifier: { send: async (m) => void told.push(m) },
    });
  const enable = async (name: string): Promise<BudgetedFilter> => {
    const { repos } = database;
    const owner =
      (await repos.users.findByUsername('budget-owner')) ??
      (await repos.users.create({ username: 'budget-owner', email: 'b@example.org', name: 'B', password_hash: 'x' }))!;
    const filter = (await repos.filters.create({ user_id: owner.user_id, name, description: name }))!;
    const version = await repos.filters.createVersion({ filter_id: filter.filter_id, code: 'x', comment: 'v1', declared_outputs: null });
    await repos.filters.transition(filter.filter_id, version.filter_version_id, 'ENABLED', null);
    return { filterId: filter.filter_id, versionId: version.filter_version_id, name, errorChannel: `#${name}` };
  };
  const windows = (f: BudgetedFilter) =>
    database.db
      .selectFrom('filter_budget_window')
      .selectAll()
      .where('filter_version_id', '=', f.versionId)
      .orderBy('kind')
      .orderBy('window_start')
      .execute();

  beforeAll(async () => {
    database = await createTestDatabase();
    told.length = 0;
  });
  afterAll(async () => {
    await database?.close();
  });

  it('adds runs of several processes to the hour and the night, histograms included', async () => {
    const f = await enable('counted');
    now = new Date('2026-12-02T07:00:10Z');
    const a = budget();
    const b = budget(); // another process, the same database
    const runA = a.start([f], 2);
    for (const t of [0.001, 0.001, 0.002]) runA.count(f, report(t, ['x']));
    runA.count(f, { ...report(5), status: 'skipped' }); // not run: not counted
    expect(await runA.finish(500)).toEqual([]);
    const runB = b.start([f], 3);
    runB.count(f, report(0.5));
    await runB.finish(300);
    const rows = await windows(f);
    expect(rows.map((r) => [r.kind, r.window_start.toISOString(), r.window_s])).toEqual([
      ['hour', '2026-12-02T07:00:00.000Z', 60],
      ['night', '2026-12-01T12:00:00.000Z', 86_400],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ alerts_seen: 800, loci_run: 4, alerts_passed: 3, enabled_filters: 3 });
      expect(row.time_s).toBeCloseTo(0.504);
      expect(row.time_histogram.reduce((x, y) => x + y, 0)).toBe(4);
    }
  });

  it('pauses a filter over its share for consecutive closed windows, telling its owner and the admins; resumed, it starts counting again', async () => {
    const slow = await enable('slow');
    const fast = await enable('fast');
    const level2 = budget();
    // Two filters: each may take half of 30 s per 10,000 alerts. 1,000 alerts seen per window: 3 s budget.
    const window = async (slowTime: number) => {
      const run = level2.start([slow, fast], 2);
      run.count(slow, report(slowTime));
      run.count(fast, report(0.01));
      const paused = await run.finish(1000);
      now = new Date(now.getTime() + 60_000);
      return paused.map((p) => p.name);
    };
    now = new Date('2026-12-02T08:00:00Z');
    told.length = 0;
    expect(await window(2)).toEqual([]); // 67% of the budget: over its half
    expect(await window(1)).toEqual([]); // 33%: under; the first over-window does not count any more
    expect(await window(2)).toEqual([]); // one closed window over (the 08:01 one was under)
    expect(await window(2)).toEqual([]); // 08:02 over
    expect(await window(0.1)).toEqual(['slow']); // 08:02 and 08:03 over: paused at the first run of 08:04
    const filter = await database.repos.filters.findById(slow.filterId);
    expect(filter?.runner_enabled).toBe(false);
    expect(filter?.enabled_version_id).toBe(slow.versionId); // paused, not disabled
    const state = (await database.repos.filterBudgets.states([slow.filterId])).get(slow.filterId)!;
    expect(state.paused_at?.toISOString()).toBe('2026-12-02T08:04:00.000Z');
    expect(state.paused_reason).toBe(
      'its time was over its share of the filter budget for 2 consecutive windows of 60 s (66.7%, 66.7% of the budget for all ' +
        'enabled filters; its share: 50%; budget: 30 s per 10,000 alerts)',
    );
    expect(told.map((m) => m.channel)).toEqual(['#slow', '#antares-admins']);
    expect(told[0].text).toBe(
      `Filter "slow" (version ${slow.versionId}) was paused: ${state.paused_reason}. An admin resumes it on the Filter Runner page.`,
    );
    // Another process judging the same windows does not pause it or tell anyone again.
    told.length = 0;
    now = new Date('2026-12-02T08:04:30Z');
    const other = budget().start([slow], 2);
    other.count(slow, report(2));
    expect(await other.finish(1000)).toEqual([{ ...slow }]);
    expect(told).toEqual([]);

    // Resumed by an admin: the windows before count no more.
    await database.repos.filterBudgets.resume(slow.filterId, new Date('2026-12-02T08:05:00Z'));
    expect((await database.repos.filterBudgets.states([slow.filterId])).get(slow.filterId)?.paused_at).toBeNull();
    now = new Date('2026-12-02T08:05:00Z');
    expect(await window(2)).toEqual([]);
    expect(await window(2)).toEqual([]);
    expect(await window(2)).toEqual(['slow']);
  });

  it('reports a window over the yield to the owner once, and pauses nothing for it', async () => {
    const noisy = await enable('noisy');
    told.length = 0;
    now = new Date('2026-12-02T09:00:00Z');
    const level2 = budget();
    const run = level2.start([noisy], 1);
    for (let i = 0; i < 20; i++) run.count(noisy, report(0.0001, ['noisy'])); // 20 of 1,000 alerts: 200 per 10,000
    await run.finish(1000);
    now = new Date('2026-12-02T09:01:00Z');
    for (const process of [level2, budget()]) await process.start([noisy], 1).finish(1000);
    expect(told).toEqual([
      {
        channel: '#noisy',
        text:
          `Filter "noisy" (version ${noisy.versionId}) passed 200 alerts per 10,000 in the window of 60 s from ` +
          '2026-12-02T09:00:00.000Z (20 of 1000); the yield asked of a filter is at most 100.',
      },
    ]);
    expect((await database.repos.filters.findById(noisy.filterId))?.runner_enabled).toBe(true);
    // The night after: its night (20 passed of the three processes' 3,000 alerts: 66.7 per 10,000, over the average of 20) is reported.
    told.length = 0;
    now = new Date('2026-12-02T12:00:00Z');
    await budget().start([noisy], 1).finish(10);
    expect(told.map((m) => m.text)).toEqual([
      `Filter "noisy" (version ${noisy.versionId}) passed 66.7 alerts per 10,000 in the night from 2026-12-01T12:00:00.000Z ` +
        '(20 of 3000); the yield asked of a filter is 20 on average.',
    ]);
  });
});
