import type { Repositories } from '@antares/db';
import {
  APT_INSTALL,
  DEFAULT_SANDBOX_LIMITS,
  FilterSandboxPool,
  level2Backlog,
  type Level2Options,
  Level2Stage,
  missingSandboxPrerequisites,
  outboxNotifier,
  runLevel2Backlog,
  type SandboxLimits,
  type WorkerLimits,
} from '@antares/pipeline';
import type { Config } from '@antares/server';

import { createProgress } from '../progress.ts';

/** Level 2's budget and yields as configured (ANTARES_FILTER_BUDGET_*, ANTARES_ADMIN_CHAT_CHANNEL). */
export function budgetOf(config: Pick<Config, 'filterBudget' | 'adminChatChannel'>): Level2Options['budget'] {
  return { limits: config.filterBudget, adminChannel: config.adminChatChannel };
}

/** The sandbox's limits, and Level 2's pool size where configured (ANTARES_LEVEL2_WORKERS, ANTARES_LEVEL2_ALERT_CACHE). */
export type Level2Limits = WorkerLimits & Partial<Pick<SandboxLimits, 'level2Workers' | 'level2AlertCache'>>;

/**
 * Level 2 for a command: the enabled filters in a sandbox pool. `whenNoFilters: 'skip'` (a one-off
 * ingest) starts nothing when no filter is enabled; a long-running server keeps a stage anyway, since
 * filters can be enabled while it runs. `slotOffset`: where the pool's sandbox user ids start (tests
 * running beside other pools). `budget`: the filters' budget and yields (the configured ones; ADR 0056).
 */
export async function openLevel2(
  repos: Repositories,
  whenNoFilters: 'skip' | 'keep',
  limits: Level2Limits,
  slotOffset = 0,
  budget?: Level2Options['budget'],
): Promise<{ stage?: Level2Stage; close(): Promise<void> }> {
  if (whenNoFilters === 'skip' && (await repos.filters.listForPipeline()).length === 0) return { close: async () => {} };
  const missing = missingSandboxPrerequisites(limits.python);
  if (missing.length > 0) {
    console.warn(`Level 2 filters are not run: missing ${missing.join(', ')} (install: ${APT_INSTALL})`);
    return { close: async () => {} };
  }
  const pool = new FilterSandboxPool({
    ...limits,
    maxWorkers: limits.level2Workers ?? DEFAULT_SANDBOX_LIMITS.level2Workers,
    alertCacheSize: limits.level2AlertCache ?? DEFAULT_SANDBOX_LIMITS.level2AlertCache,
    slotOffset,
  });
  // Failure reports go to the chat outbox, delivered by the server (see ChatDispatcher).
  const stage = new Level2Stage(repos, pool, { notifier: outboxNotifier(repos), budget });
  await stage.refresh();
  console.log(`Level 2: ${stage.filterCount} enabled filter(s)`);
  return { stage, close: () => pool.close() };
}

/**
 * Level 2 over the loci it missed (see level2Backlog): on a machine that first started without the
 * filter sandbox, the loci ingested then get their tags once the prerequisites are installed and
 * ANTARES starts again. Says what waits when the sandbox still cannot run.
 */
export async function catchUpLevel2(
  repos: Repositories,
  limits: Level2Limits,
  slotOffset = 0,
  budget?: Level2Options['budget'],
): Promise<void> {
  const backlog = await level2Backlog(repos);
  if (backlog.loci === 0) return;
  const missing = missingSandboxPrerequisites(limits.python);
  if (missing.length > 0) {
    console.warn(
      `Level 2: ${backlog.loci} loci wait for ${backlog.versions} enabled filter(s), which cannot run: missing ${missing.join(', ')} (install: ${APT_INSTALL}, then start again)`,
    );
    return;
  }
  console.log(`Level 2: ${backlog.loci} loci were never run through ${backlog.versions} enabled filter(s); running them now`);
  const level2 = await openLevel2(repos, 'skip', limits, slotOffset, budget);
  if (!level2.stage) return;
  const progress = createProgress('level 2', backlog.loci, 'loci');
  try {
    await runLevel2Backlog(level2.stage, backlog, (done, total) => progress.update(done, '', total));
    progress.stop();
    const s = level2.stage.stats;
    console.log(
      `Level 2 catch-up: ${s.lociRun} locus runs, ${s.tagsAdded} tags added, ${s.failures} failures` +
        (s.disabled.length ? `; disabled: ${s.disabled.join(', ')}` : ''),
    );
  } finally {
    progress.stop();
    await level2.close();
  }
}
