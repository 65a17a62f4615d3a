import type { Repositories } from '@antares/db';

import { LEVEL2_MIN_MEASUREMENTS, type Level2Stage } from './level2.ts';

/** Loci per Level 2 run of the catch-up (an ingestion batch touches about as many). */
const CATCH_UP_CHUNK = 500;

/** Loci that enabled filter versions missed, grouped by the versions that missed them. */
export interface Level2Backlog {
  /** Each group: the versions to run (a set shared by all its loci) and the loci. */
  groups: Array<{ versions: Set<number>; locusIds: string[] }>;
  /** Loci in all groups. */
  loci: number;
  /** Enabled versions that missed some locus. */
  versions: number;
}

/**
 * What Level 2 missed: for each enabled filter version, the loci whose alerts arrived after it was
 * enabled and after it last ran on them (a start without the sandbox, a stop mid-batch). Reads the
 * database only: callers check this before starting any sandbox.
 */
export async function level2Backlog(repos: Repositories): Promise<Level2Backlog> {
  const missedBy = new Map<string, number[]>();
  let versions = 0;
  for (const filter of await repos.filters.listForPipeline()) {
    const missed = await repos.level2Runs.missedLoci(filter.version_id, LEVEL2_MIN_MEASUREMENTS);
    if (missed.length > 0) versions++;
    for (const locusId of missed) {
      const list = missedBy.get(locusId);
      if (list) list.push(filter.version_id);
      else missedBy.set(locusId, [filter.version_id]);
    }
  }
  const byKey = new Map<string, { versions: Set<number>; locusIds: string[] }>();
  for (const [locusId, versionIds] of missedBy) {
    const key = versionIds.join(',');
    const group = byKey.get(key) ?? { versions: new Set(versionIds), locusIds: [] };
    group.locusIds.push(locusId);
    byKey.set(key, group);
  }
  return { groups: [...byKey.values()], loci: missedBy.size, versions };
}

/**
 * Runs each group's versions (those loaded in the stage) on its loci, in chunks, streaming only tags
 * the loci did not have (see Level2RunOptions.newTagsOnly). Each chunk is recorded as it finishes, so a
 * catch-up that stops part way resumes where it was.
 */
export async function runLevel2Backlog(
  stage: Level2Stage,
  backlog: Level2Backlog,
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  let done = 0;
  onProgress?.(0, backlog.loci);
  for (const group of backlog.groups) {
    for (let i = 0; i < group.locusIds.length; i += CATCH_UP_CHUNK) {
      const chunk = group.locusIds.slice(i, i + CATCH_UP_CHUNK);
      await stage.run(chunk, { versions: group.versions, newTagsOnly: true });
      done += chunk.length;
      onProgress?.(done, backlog.loci);
    }
  }
}
