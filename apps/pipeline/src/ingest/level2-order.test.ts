import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { createTestDatabase, type Repositories } from '@antares/db';
import { afterAll, beforeAll, expect, it } from 'vitest';

import type { Level2RunOptions } from '../filters/level2.ts';
import { simulateSurvey } from '../simulate/index.ts';
import { expandInputs, ingestFiles } from './ingest-files.ts';

// Level 2 of a batch runs while the next batch is stored. It must still see each locus as its own batch
// left it: a filter whose verdict depends on the locus (how many alerts, the newest one) gave a
// different tag now and then when the next batch happened to commit before Level 2 read (ADR 0043).

let survey: string;
beforeAll(async () => {
  survey = mkdtempSync(path.join(os.tmpdir(), 'antares-level2-order-'));
  await simulateSurvey({ objects: 40, nights: 4, seed: 2044, outDir: survey, processes: 1 });
}, 120_000);
afterAll(() => {
  if (survey) rmSync(survey, { recursive: true, force: true });
});

/**
 * A Level 2 stage that is slow to start, as one whose Python workers are busy is, then records the
 * alerts_revision at which it finds each locus of its batch.
 */
class SlowRecordingLevel2 {
  readonly seen: string[] = [];
  runs = 0;

  constructor(private readonly repos: Repositories) {}

  async run(locusIds: string[], options: Level2RunOptions = {}): Promise<void> {
    this.runs++;
    await sleep(300);
    const revisions = await this.repos.loci.alertsRevisions(locusIds);
    for (const [locusId, revision] of revisions) this.seen.push(`${locusId}@${revision}`);
    options.onLociRead?.();
  }
}

it('runs Level 2 on each locus as its own batch left it, not as the next batch did', async () => {
  const database = await createTestDatabase();
  try {
    const level2 = new SlowRecordingLevel2(database.repos);
    const stats = await ingestFiles(database.repos, expandInputs([survey]), { batchSize: 20, level2 });
    expect(stats.lociUpdated).toBeGreaterThan(0);
    expect(level2.runs).toBeGreaterThan(3);
    // Every batch moves each locus it touched to a new revision: a run that saw a locus at the same
    // revision as the run after it saw the later batch's locus.
    expect(level2.seen.length).toBeGreaterThan(stats.lociCreated);
    expect(new Set(level2.seen).size).toBe(level2.seen.length);
  } finally {
    await database.close();
  }
}, 120_000);
