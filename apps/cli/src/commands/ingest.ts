import type { Repositories } from '@antares/db';
import {
  alertSchemaSource,
  expandInputs,
  formatIngestSummary,
  GwMatcher,
  ingestFiles,
  type IngestStats,
  WatchMatcher,
} from '@antares/pipeline';
import { type Config, loadConfig } from '@antares/server';

import { createProgress } from '../progress.ts';
import { budgetOf, openLevel2 } from './level2.ts';

/** `config` gives the site address that chat notifications link to; the environment's by default. */
export async function runIngest(repos: Repositories, inputs: string[], config: Config = loadConfig()): Promise<IngestStats> {
  const files = expandInputs(inputs);
  const level2 = await openLevel2(repos, 'skip', config.filterLimits, 0, budgetOf(config));
  const progress = createProgress('ingest', files.length, 'files');
  const started = Date.now();
  try {
    const stats = await ingestFiles(repos, files, {
      level2: level2.stage,
      watch: new WatchMatcher(siteUrlOf(config)),
      gw: new GwMatcher(),
      schemas: alertSchemaSource(config.schemaRegistryUrl),
      onProgress: (p) => progress.update(p.filesDone, `${p.packetsRead} packets`),
    });
    progress.stop();
    const seconds = (Date.now() - started) / 1000;
    console.log(formatIngestSummary(stats));
    if (level2.stage) {
      const s = level2.stage.stats;
      console.log(
        `Level 2:             ${s.lociRun} locus runs, ${s.tagsAdded} tags added, ${s.failures} failures` +
          (s.disabled.length ? `; disabled: ${s.disabled.join(', ')}` : ''),
      );
    }
    console.log(`time:                ${seconds.toFixed(1)} s (${(stats.packetsRead / Math.max(seconds, 1e-3)).toFixed(0)} packets/s)`);
    return stats;
  } finally {
    await level2.close();
  }
}

/** The address links in chat messages point to. */
export function siteUrlOf(config: Config): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}
