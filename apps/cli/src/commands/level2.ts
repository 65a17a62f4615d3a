import type { Repositories } from '@antares/db';
import { APT_INSTALL, FilterSandboxPool, Level2Stage, missingSandboxPrerequisites, outboxNotifier, type WorkerLimits } from '@antares/pipeline';

/**
 * Level 2 for a command: the enabled filters in a sandbox pool. `whenNoFilters: 'skip'` (a one-off
 * ingest) starts nothing when no filter is enabled; a long-running server keeps a stage anyway, since
 * filters can be enabled while it runs.
 */
export async function openLevel2(repos: Repositories, whenNoFilters: 'skip' | 'keep', limits: WorkerLimits): Promise<{ stage?: Level2Stage; close(): Promise<void> }> {
  if (whenNoFilters === 'skip' && (await repos.filters.listForPipeline()).length === 0) return { close: async () => {} };
  const missing = missingSandboxPrerequisites();
  if (missing.length > 0) {
    console.warn(`Level 2 filters are not run: missing ${missing.join(', ')} (install: ${APT_INSTALL})`);
    return { close: async () => {} };
  }
  const pool = new FilterSandboxPool({ ...limits, maxWorkers: 8 });
  // Failure reports go to the chat outbox, delivered by the server (see ChatDispatcher).
  const stage = new Level2Stage(repos, pool, { notifier: outboxNotifier(repos) });
  await stage.refresh();
  console.log(`Level 2: ${stage.filterCount} enabled filter(s)`);
  return { stage, close: () => pool.close() };
}
