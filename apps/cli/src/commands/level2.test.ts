import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { compileLocusSearch, createTestDatabase, type TestDatabase } from '@antares/db';
import {
  APT_INSTALL,
  DEFAULT_SANDBOX_LIMITS,
  ensureShippedFilters,
  expandInputs,
  ingestFiles,
  missingSandboxPrerequisites,
} from '@antares/pipeline';
import { simulateSurvey } from '@antares/pipeline/simulate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { catchUpLevel2 } from './level2.ts';

// The start on a machine whose first start lacked the filter sandbox: the shipped filters were
// enabled and the survey ingested without Level 2; this start runs them over those loci.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `the Level 2 catch-up test needs ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

describe.skipIf(missing.length > 0)('antares start after the filter prerequisites were installed', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    const results = await ensureShippedFilters(database.repos);
    expect(results.every((r) => r.action === 'created')).toBe(true);
    const survey = mkdtempSync(path.join(os.tmpdir(), 'antares-start-catchup-'));
    try {
      await simulateSurvey({ objects: 60, nights: 8, seed: 2026, outDir: survey, processes: 1 });
      // What the first start did without the sandbox: ingestion without Level 2.
      await ingestFiles(database.repos, expandInputs([survey]));
    } finally {
      rmSync(survey, { recursive: true, force: true });
    }
  }, 300_000);
  afterAll(async () => database?.close());

  const lociTagged = async (tag: string) => {
    const search = compileLocusSearch({ query: { bool: { filter: { term: { tags: tag } } } } });
    return (await database.repos.loci.search({ search, sort: [], limit: 1000, offset: 0 })).rows.length;
  };

  it('runs the enabled filters over the loci they missed, with progress, and the listed tags then match loci', async () => {
    const tags = (await database.repos.tags.list({ sort: 'id', limit: 100, offset: 0 })).rows.map((t) => t.tag_id);
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) expect(await lociTagged(tag), tag).toBe(0);

    const said: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void said.push(args.join(' ')));
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (said.push(String(chunk)), true));
    try {
      await catchUpLevel2(database.repos, DEFAULT_SANDBOX_LIMITS, 250);
    } finally {
      log.mockRestore();
      write.mockRestore();
    }
    const text = said.join('\n');
    expect(text).toMatch(/Level 2: (\d+) loci were never run through \d+ enabled filter\(s\); running them now/);
    const total = Number(/Level 2: (\d+) loci/.exec(text)![1]);
    expect(text).toContain(`level 2: ${total}/${total} loci`);
    expect(text).toMatch(/Level 2 catch-up: \d+ locus runs, \d+ tags added, \d+ failures/);

    const counts = await Promise.all(tags.map(lociTagged));
    expect(
      counts.some((n) => n > 0),
      `${tags.join(', ')}: ${counts.join(', ')}`,
    ).toBe(true);

    // The next start has nothing left to do, and says nothing.
    said.length = 0;
    const again = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void said.push(args.join(' ')));
    try {
      await catchUpLevel2(database.repos, DEFAULT_SANDBOX_LIMITS, 250);
    } finally {
      again.mockRestore();
    }
    expect(said).toEqual([]);
  }, 600_000);
});
