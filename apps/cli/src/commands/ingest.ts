import type { Repositories } from '@antares/db';
import {
  FilterSandboxPool, Level2Stage, expandInputs, formatIngestSummary, ingestFiles, missingSandboxPrerequisites, type IngestStats,
} from '@antares/pipeline';
import { createProgress } from '../progress.ts';

/** Level 2 for this run: the enabled filters in a sandbox pool, when there are any and a sandbox here. */
async function level2For(repos: Repositories): Promise<{ stage?: Level2Stage; close(): Promise<void> }> {
  if ((await repos.filters.listForPipeline()).length === 0) return { close: async () => {} };
  const missing = missingSandboxPrerequisites();
  if (missing.length > 0) {
    console.warn(`Level 2 filters are not run: missing ${missing.join(', ')}`);
    return { close: async () => {} };
  }
  const pool = new FilterSandboxPool({ maxWorkers: 8 });
  const stage = new Level2Stage(repos, pool);
  await stage.refresh();
  console.log(`Level 2: ${stage.filterCount} enabled filter(s)`);
  return { stage, close: () => pool.close() };
}

export async function runIngest(repos: Repositories, inputs: string[]): Promise<IngestStats> {
  const files = expandInputs(inputs);
  const level2 = await level2For(repos);
  const progress = createProgress('ingest', files.length, 'files');
  const started = Date.now();
  try {
    const stats = await ingestFiles(repos, files, {
      level2: level2.stage,
      onProgress: (p) => progress.update(p.filesDone, `${p.packetsRead} packets`),
    });
    progress.stop();
    const seconds = (Date.now() - started) / 1000;
    console.log(formatIngestSummary(stats));
    if (level2.stage) {
      const s = level2.stage.stats;
      console.log(`Level 2:             ${s.lociRun} locus runs, ${s.tagsAdded} tags added, ${s.failures} failures`
        + (s.disabled.length ? `; disabled: ${s.disabled.join(', ')}` : ''));
    }
    console.log(`time:                ${seconds.toFixed(1)} s (${(stats.packetsRead / Math.max(seconds, 1e-3)).toFixed(0)} packets/s)`);
    return stats;
  } finally {
    await level2.close();
  }
}
