import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
  APT_INSTALL,
  expandInputs,
  FilterSandboxPool,
  ingestFiles,
  Level2Stage,
  missingSandboxPrerequisites,
  outboxNotifier,
} from '@antares/pipeline';
import { simulateSurvey } from '@antares/pipeline/simulate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { HttpSession } from '../../testing/http-session.ts';
import { signedInSession } from '../../testing/signed-in.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// Budgets live (ADR 0056): a real sandboxed filter overruns a tiny budget over consecutive short windows
// (a clock stepped by hand), Level 2 pauses it and tells its owner and the admins in chat, the filter
// runner shows why, and an admin resumes it over HTTP.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `filter budget tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const SLOW = `import time
import antares.devkit as dk
class Slow(dk.Filter):
    ERROR_SLACK_CHANNEL = '#slow-owner'
    OUTPUT_TAGS = [{'name': 'slow_seen', 'description': 'every locus, slowly'}]
    def run(self, locus):
        time.sleep(0.005)
        locus.tag('slow_seen')
`;

describe.skipIf(missing.length > 0)('filter budgets in Level 2 and the filter runner', () => {
  let server: TestServer;
  let pool: FilterSandboxPool;
  let admin: HttpSession;
  let owner: HttpSession;

  beforeAll(async () => {
    server = await startTestServer({
      config: {
        // 1 ms per 10,000 alerts for all filters: 5 ms per locus is far over it. Windows of a minute, two in a row pause.
        filterBudget: {
          secondsPer10k: 0.001,
          yieldAveragePer10k: 20,
          yieldMaxPer10k: 100,
          windowSeconds: 60,
          pauseAfterWindows: 2,
          shares: {},
        },
        adminChatChannel: '#antares-admins',
      },
    });
    pool = new FilterSandboxPool({ maxWorkers: 2, slotOffset: 700 });
    admin = await signedInSession(server, 'budget-admin', { admin: true });
    owner = await signedInSession(server, 'budget-owner');
  });
  afterAll(async () => {
    await pool?.close();
    await server?.close();
  });

  it('pauses a filter over its share for consecutive windows, with chat notices, and an admin resumes it', async () => {
    const { repos } = server;
    const user = (await repos.users.findByUsername('budget-owner'))!;
    const filter = (await repos.filters.create({ user_id: user.user_id, name: 'Slow filter', description: 'sleeps' }))!;
    const version = await repos.filters.createVersion({ filter_id: filter.filter_id, code: SLOW, comment: 'v1', declared_outputs: null });
    await repos.filters.transition(filter.filter_id, version.filter_version_id, 'ENABLED', null);

    let now = new Date('2026-11-30T10:00:05Z');
    const level2 = new Level2Stage(repos, pool, {
      notifier: outboxNotifier(repos),
      budget: { limits: server.config.filterBudget, adminChannel: server.config.adminChatChannel, clock: () => now },
    });
    await level2.refresh();
    expect(level2.filterCount).toBe(1);

    // Window 10:00: the alerts ingested, Level 2 running on each batch.
    const survey = mkdtempSync(path.join(os.tmpdir(), 'antares-budget-'));
    try {
      await simulateSurvey({ objects: 20, nights: 4, seed: 48, outDir: survey, processes: 1 });
      const stats = await ingestFiles(repos, expandInputs([survey]), { level2 });
      expect(stats.alertsStored).toBeGreaterThan(0);
    } finally {
      rmSync(survey, { recursive: true, force: true });
    }
    const first = await server.getJson('/v1/filter_runner/Slow%20filter');
    expect(first.status).toBe(200);
    const hour = first.body.data.attributes.budget.hour;
    expect(hour).toMatchObject({ start: '2026-11-30T10:00:00.000Z', seconds: 60, current: false, over_share: true, allowed_share: 1 });
    expect(hour.alerts_seen).toBeGreaterThan(hour.loci_run); // every alert of the batches, not only the loci run
    expect(hour.alerts_passed).toBe(hour.loci_run); // it tags every locus it runs on
    expect(hour.p50_ms).toBeGreaterThan(4);
    expect(hour.p99_ms).toBeGreaterThanOrEqual(hour.p50_ms);
    expect(hour.share).toBeGreaterThan(1);
    expect(first.body.data.attributes.budget.night).toMatchObject({ start: '2026-11-29T12:00:00.000Z', seconds: 86_400 });
    expect(first.body.data.attributes.budget.limits).toEqual({
      seconds_per_10k: 0.001,
      yield_average_per_10k: 20,
      yield_max_per_10k: 100,
      window_s: 60,
      pause_after_windows: 2,
    });
    expect(first.body.data.attributes).toMatchObject({ state: 'running', enabled: true, paused_at: null });

    // Windows 10:01 and 10:02 over again: at the first run of 10:02, two closed windows are over, and it is paused.
    const loci = (await repos.db.selectFrom('locus').select('locus_id').execute()).map((l) => l.locus_id);
    now = new Date('2026-11-30T10:01:05Z');
    await level2.run(loci);
    expect(level2.filterCount).toBe(1);
    now = new Date('2026-11-30T10:02:05Z');
    await level2.run(loci);
    expect(level2.filterCount).toBe(0);
    expect(level2.stats.disabled).toEqual([]);

    const outbox = await repos.db.selectFrom('chat_outbox').select(['channel', 'text']).orderBy('message_id').execute();
    // It tags every locus, far over 100 per 10,000 alerts: each closed window's yield was reported to its owner (not paused for that).
    expect(outbox.map((m) => m.channel)).toEqual(['#slow-owner', '#slow-owner', '#slow-owner', '#antares-admins']);
    expect(outbox[0].text).toMatch(
      /^Filter "Slow filter" \(version \d+\) passed [\d.]+ alerts per 10,000 in the window of 60 s from 2026-11-30T10:00:00.000Z .*at most 100\.$/,
    );
    expect(outbox[1].text).toContain('from 2026-11-30T10:01:00.000Z');
    expect(outbox[2].text).toMatch(
      /^Filter "Slow filter" \(version \d+\) was paused: its time was over its share of the filter budget for 2 consecutive windows of 60 s/,
    );
    expect(outbox[3].text).toBe(outbox[2].text);

    const listed = await server.getJson('/v1/filter_runner');
    const paused = listed.body.data.find((r: { id: string }) => r.id === 'Slow filter');
    expect(paused.attributes).toMatchObject({ enabled: false, state: 'paused_for_budget', paused_at: '2026-11-30T10:02:05.000Z' });
    expect(paused.attributes.paused_reason).toContain('budget: 0.001 s per 10,000 alerts');
    // The filter's own page reads the same resource; the owner cannot resume it, an admin can.
    expect((await owner.patch('/v1/filter_runner/Slow%20filter', { data: { attributes: { enabled: true } } })).status).toBe(403);
    const resumed = await admin.patch('/v1/filter_runner/Slow%20filter', {
      data: { type: 'filter_runner_filter', attributes: { enabled: true } },
    });
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.attributes).toMatchObject({ enabled: true, state: 'running', paused_at: null, paused_reason: null });
    await level2.refresh();
    expect(level2.filterCount).toBe(1);
    // An admin's own pause is not a budget pause.
    await admin.patch('/v1/filter_runner/Slow%20filter', { data: { attributes: { enabled: false } } });
    expect((await server.getJson('/v1/filter_runner/Slow%20filter')).body.data.attributes).toMatchObject({
      state: 'paused',
      paused_at: null,
    });
    expect((await server.getJson('/v1/filter_runner/No%20such')).status).toBe(404);
  });
});
