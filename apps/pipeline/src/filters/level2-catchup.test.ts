import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createTestDatabase, type TestDatabase } from '@antares/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { expandInputs, ingestFiles } from '../ingest/ingest-files.ts';
import { simulateSurvey } from '../simulate/index.ts';
import { Level2Stage } from './level2.ts';
import { level2Backlog, runLevel2Backlog } from './level2-catchup.ts';
import { APT_INSTALL, FilterSandboxPool, missingSandboxPrerequisites } from './pool/index.ts';

// Level 2 catch-up: loci ingested while the filters could not run (no sandbox on a first start) get
// them later, once; what Level 2 already ran is not run again.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `Level 2 catch-up tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const TAGGER = `import antares.devkit as dk
class MultiDetection(dk.Filter):
    OUTPUT_TAGS = [{'name': 'multi_detection', 'description': 'two or more detections'}]
    def run(self, locus):
        locus.tag('multi_detection')
`;
const FOLLOWER = `import antares.devkit as dk
class Follower(dk.Filter):
    REQUIRED_TAGS = ['multi_detection']
    OUTPUT_TAGS = [{'name': 'followed', 'description': 'saw the tag of the filter before'}]
    def run(self, locus):
        locus.tag('followed')
`;

describe.skipIf(missing.length > 0)('Level 2 over the loci it missed', () => {
  let database: TestDatabase;
  let pool: FilterSandboxPool;
  let versionIds: number[] = [];

  const enable = async (name: string, code: string, priority: number) => {
    const { repos } = database;
    const owner =
      (await repos.users.findByUsername('catchup-owner')) ??
      (await repos.users.create({ username: 'catchup-owner', email: 'cu@example.org', name: 'CU', password_hash: 'x' }))!;
    const filter = (await repos.filters.create({ user_id: owner.user_id, name, description: name }))!;
    await database.db.updateTable('filter').set({ priority }).where('filter_id', '=', filter.filter_id).execute();
    const version = await repos.filters.createVersion({ filter_id: filter.filter_id, code, comment: 'v1', declared_outputs: null });
    await repos.filters.transition(filter.filter_id, version.filter_version_id, 'ENABLED', null);
    return version.filter_version_id;
  };
  const ingest = async (seed: number, level2?: Level2Stage) => {
    const survey = mkdtempSync(path.join(os.tmpdir(), 'antares-catchup-'));
    try {
      await simulateSurvey({ objects: 30, nights: 6, seed, outDir: survey, processes: 1 });
      return await ingestFiles(database.repos, expandInputs([survey]), { level2 });
    } finally {
      rmSync(survey, { recursive: true, force: true });
    }
  };
  const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(database.db)).rows[0].n);
  const lociWith = (tag: string) => count(sql<{ n: number }>`SELECT count(*)::int AS n FROM locus WHERE ${tag} = ANY (tags)`);
  const messages = (tag: string) => count(sql<{ n: number }>`SELECT count(*)::int AS n FROM stream_message WHERE stream = ${tag}`);
  const eligible = () => count(sql<{ n: number }>`SELECT count(*)::int AS n FROM locus WHERE num_mag_values >= 2`);
  const stage = async () => {
    const level2 = new Level2Stage(database.repos, pool);
    await level2.refresh();
    return level2;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new FilterSandboxPool({ maxWorkers: 2, slotOffset: 230 });
    versionIds = [await enable('Multi detection', TAGGER, 1), await enable('Follower', FOLLOWER, 2)];
  });
  afterAll(async () => {
    await pool?.close();
    await database?.close();
  });

  it('runs the enabled filters, in priority order, on every locus ingested without them, with progress, once', async () => {
    // Ingested as a start without the sandbox does: no Level 2.
    await ingest(21);
    expect(await lociWith('multi_detection')).toBe(0);
    const backlog = await level2Backlog(database.repos);
    expect(backlog.loci).toBe(await eligible());
    expect(backlog.loci).toBeGreaterThan(0);
    expect(backlog.versions).toBe(2);
    expect(backlog.groups.map((g) => [...g.versions])).toEqual([versionIds]);

    const progress: Array<[number, number]> = [];
    const level2 = await stage();
    await runLevel2Backlog(level2, backlog, (done, total) => progress.push([done, total]));
    expect(progress[0]).toEqual([0, backlog.loci]);
    expect(progress.at(-1)).toEqual([backlog.loci, backlog.loci]);
    expect(await lociWith('multi_detection')).toBe(backlog.loci);
    // The second filter required the first one's tag, and saw it.
    expect(await lociWith('followed')).toBe(backlog.loci);
    expect(await messages('multi_detection')).toBe(backlog.loci);

    // Nothing is left, and a second start runs nothing again.
    expect((await level2Backlog(database.repos)).loci).toBe(0);
    const runs = level2.stats.lociRun;
    await runLevel2Backlog(level2, await level2Backlog(database.repos));
    expect(level2.stats.lociRun).toBe(runs);
  });

  it('leaves alone what Level 2 ran at ingestion, and takes only the loci a later ingestion without it touched', async () => {
    const level2 = await stage();
    await ingest(22, level2);
    expect((await level2Backlog(database.repos)).loci).toBe(0);

    const since = (await sql<{ t: Date }>`SELECT now() AS t`.execute(database.db)).rows[0].t;
    await ingest(23);
    const touched = await count(sql<{
      n: number;
    }>`SELECT count(DISTINCT l.locus_id)::int AS n FROM locus l JOIN alert a ON a.locus_id = l.locus_id
      WHERE a.processed_at > ${since} AND l.num_mag_values >= 2`);
    const backlog = await level2Backlog(database.repos);
    expect(touched).toBeGreaterThan(0);
    expect(backlog.loci).toBe(touched);
    await runLevel2Backlog(level2, backlog);
    expect(await lociWith('multi_detection')).toBe(await eligible());
    expect((await level2Backlog(database.repos)).loci).toBe(0);
  });

  it('does not run a filter enabled later over the loci before it, nor announce tags the loci already had', async () => {
    // Enabled now: it runs on alerts from now on, as any filter does.
    await enable('Later', TAGGER.replace('multi_detection', 'later_tag').replace('MultiDetection', 'Later'), 3);
    expect((await level2Backlog(database.repos)).loci).toBe(0);

    // A database from before runs were recorded: the catch-up runs the filters again, and streams nothing
    // for tags the loci carry already.
    await sql`DELETE FROM level2_run WHERE filter_version_id = ${versionIds[0]}`.execute(database.db);
    const backlog = await level2Backlog(database.repos);
    expect(backlog.loci).toBe(await eligible());
    expect(backlog.groups.map((g) => [...g.versions])).toEqual([[versionIds[0]]]);
    const streamed = await messages('multi_detection');
    await runLevel2Backlog(await stage(), backlog);
    expect(await messages('multi_detection')).toBe(streamed);
    expect(await messages('later_tag')).toBe(0);
  });
});
