import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { compileLocusSearch, createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { expandInputs, ingestFiles } from '../ingest/ingest-files.ts';
import { simulateSurvey } from '../simulate/index.ts';
import { Level2Stage } from './level2.ts';
import { APT_INSTALL, FilterSandboxPool, missingSandboxPrerequisites } from './pool/index.ts';

// Level 2 in the pipeline: enabled filters run on ingested alerts and their tags become searchable.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `Level 2 tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const TAGGER = `import antares.devkit as dk
class MultiDetection(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'level2_num_points', 'type': 'int', 'description': 'detections seen'}]
    OUTPUT_TAGS = [{'name': 'multi_detection', 'description': 'two or more detections'}]
    def run(self, locus):
        n = sum(1 for a in locus.alerts if a.properties.get('ant_mag') is not None)
        locus.properties['level2_num_points'] = n
        if n >= 2:
            locus.tag('multi_detection')
`;
const FOLLOWER = `import antares.devkit as dk
class Follower(dk.Filter):
    REQUIRED_TAGS = ['multi_detection']
    OUTPUT_TAGS = [{'name': 'followed', 'description': 'saw the tag of the filter before'}]
    def run(self, locus):
        locus.tag('followed')
`;
const BROKEN = `import antares.devkit as dk
class Broken(dk.Filter):
    ERROR_SLACK_CHANNEL = '#broken-alerts'
    def run(self, locus):
        raise ValueError('this filter always fails')
`;

describe.skipIf(missing.length > 0)('Level 2 filters in the pipeline', () => {
  let database: TestDatabase;
  let pool: FilterSandboxPool;
  const enable = async (name: string, code: string, priority: number, filterClass?: string) => {
    const { repos } = database;
    const owner =
      (await repos.users.findByUsername('level2-owner')) ??
      (await repos.users.create({ username: 'level2-owner', email: 'l2@example.org', name: 'L2', password_hash: 'x' }))!;
    const filter = (await repos.filters.create({ user_id: owner.user_id, name, description: name }))!;
    await database.db.updateTable('filter').set({ priority }).where('filter_id', '=', filter.filter_id).execute();
    const version = await repos.filters.createVersion({
      filter_id: filter.filter_id,
      code,
      comment: 'v1',
      declared_outputs: null,
      filter_class: filterClass,
    });
    await repos.filters.transition(filter.filter_id, version.filter_version_id, 'ENABLED', null);
    return filter.filter_id;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new FilterSandboxPool({ maxWorkers: 4, slotOffset: 160 });
  });
  afterAll(async () => {
    await pool?.close();
    await database?.close();
  });

  it('tags loci with two or more measurements, in priority order, and disables a filter that keeps failing', async () => {
    await enable('Multi detection', TAGGER, 1);
    await enable('Follower', FOLLOWER, 2);
    const brokenId = await enable('Broken', BROKEN, 3);
    const told: Array<{ channel: string; text: string }> = [];
    const level2 = new Level2Stage(database.repos, pool, {
      maxConsecutiveFailures: 3,
      notifier: {
        send: async (m) => {
          told.push(m);
        },
      },
    });
    await level2.refresh();
    expect(level2.filterCount).toBe(3);

    // Simulated alerts: real-format packets whose objects have several detections each.
    const survey = mkdtempSync(path.join(os.tmpdir(), 'antares-level2-'));
    await simulateSurvey({ objects: 60, nights: 8, seed: 5, outDir: survey, processes: 1 });
    await ingestFiles(database.repos, expandInputs([survey]), { level2 });
    rmSync(survey, { recursive: true, force: true });

    const tagged = compileLocusSearch({ query: { bool: { filter: { term: { tags: 'multi_detection' } } } } });
    const { rows } = await database.repos.loci.search({ search: tagged, sort: [], limit: 1000, offset: 0 });
    expect(rows.length).toBeGreaterThan(0);
    for (const locus of rows) {
      expect(Number(locus.properties.num_mag_values)).toBeGreaterThanOrEqual(2);
      expect(locus.properties.level2_num_points).toBe(locus.properties.num_mag_values);
      // The second filter required the first one's tag and saw it.
      expect(locus.tags).toContain('followed');
    }
    const single = compileLocusSearch({ query: { range: { 'properties.num_mag_values': { lt: 2 } } } });
    for (const locus of (await database.repos.loci.search({ search: single, sort: [], limit: 1000, offset: 0 })).rows) {
      expect(locus.tags).toEqual([]);
    }

    // Every tagged locus update fed the tag's output stream with the locus as it then was.
    const messages = await database.repos.streams.read('multi_detection', 0, 10_000);
    expect(new Set(messages.map((m) => m.locus_id))).toEqual(new Set(rows.map((l) => l.locus_id)));
    for (const m of messages) expect((m.locus as { tags: string[] }).tags).toContain('multi_detection');
    expect((await database.repos.streams.read('followed', 0, 10_000)).length).toBe(messages.length);

    // Run again on the same alerts, the filters write what the loci hold already: the rows stay as they are.
    const ids = rows.map((l) => l.locus_id);
    const updatedAt = () =>
      database.db.selectFrom('locus').select(['locus_id', 'updated_at']).where('locus_id', 'in', ids).orderBy('locus_id').execute();
    const before = await updatedAt();
    await level2.run(ids);
    expect(await updatedAt()).toEqual(before);

    expect(level2.stats.disabled).toEqual(['Broken']);
    const broken = await database.repos.filters.findById(brokenId);
    expect(broken?.enabled_version_id).toBeNull();
    const versions = await database.repos.filters.listVersions(brokenId, { sort: '-created_at', limit: 10, offset: 0 });
    expect(versions.rows[0].status).toBe('DISABLED');
    expect(versions.rows[0].feedback).toContain('this filter always fails');
    // The owner hears about it on the filter's error channel: the first failure, then the disabling.
    expect(told.map((m) => m.channel)).toEqual(['#broken-alerts', '#broken-alerts']);
    expect(told[0].text).toMatch(/^Filter "Broken" \(version \d+\) failed on locus ANT\S+:\nValueError: this filter always fails/);
    expect(told[1].text).toContain('was disabled: it failed on 3 loci in a row');
  });

  it('disables a filter that hangs in run after a few timeouts, and one that hangs at load after a few refreshes; ingestion goes on', async () => {
    // Short limits of its own, so that the hangs cost seconds here (the numbers are in sandbox-limits.ts).
    const hangPool = new FilterSandboxPool({
      maxWorkers: 4,
      slotOffset: 190,
      locusTimeoutMs: 1000,
      loadTimeoutMs: 3000,
      stallGraceMs: 1000,
    });
    try {
      const hungId = await enable(
        'Hung',
        `import antares.devkit as dk
class Hung(dk.Filter):
    def run(self, locus):
        while True:
            pass
`,
        0,
      );
      const hungAtLoadId = await enable('Hung at load', 'while True:\n    pass\n', 0);
      const level2 = new Level2Stage(database.repos, hangPool, { maxConsecutiveTimeouts: 3 });
      await level2.refresh();
      // A load that timed out gets another chance on the next refresh (a busy machine is not the filter's fault).
      expect(level2.stats.disabled).toEqual([]);
      const survey = mkdtempSync(path.join(os.tmpdir(), 'antares-level2-hang-'));
      await simulateSurvey({ objects: 40, nights: 6, seed: 11, outDir: survey, processes: 1 });
      const stats = await ingestFiles(database.repos, expandInputs([survey]), { level2 });
      rmSync(survey, { recursive: true, force: true });
      await level2.refresh();
      await level2.refresh();

      expect([...level2.stats.disabled].sort()).toEqual(['Hung', 'Hung at load']);
      const feedback = async (filterId: number) =>
        (await database.repos.filters.listVersions(filterId, { sort: '-created_at', limit: 1, offset: 0 })).rows[0];
      expect(await feedback(hungId)).toMatchObject({
        status: 'DISABLED',
        feedback: expect.stringContaining('it timed out on 3 loci in a row'),
      });
      expect(await feedback(hungAtLoadId)).toMatchObject({
        status: 'DISABLED',
        feedback: expect.stringContaining('loading the filter took longer than 3 s'),
      });
      // It ran on only the loci that disabled it: three timeouts, not one per locus of the batch.
      expect(level2.stats.failures).toBe(3);
      // The filters after it (the earlier test's, still enabled) ran on every new locus.
      expect(stats.alertsStored).toBeGreaterThan(0);
      const multi = compileLocusSearch({ query: { range: { 'properties.num_mag_values': { gte: 2 } } } });
      const { rows } = await database.repos.loci.search({ search: multi, sort: [], limit: 1000, offset: 0 });
      for (const locus of rows) expect(locus.tags).toContain('followed');
    } finally {
      await hangPool.close();
    }
  });

  it('runs the filter class a version names when its code defines several', async () => {
    const notebook = `import antares.devkit as dk
class Earlier(dk.Filter):
    OUTPUT_TAGS = [{'name': 'nb_earlier', 'description': 'the class the version names'}]
    def run(self, locus):
        locus.tag('nb_earlier')
class Later(dk.Filter):
    OUTPUT_TAGS = [{'name': 'nb_later', 'description': 'the last class: the default'}]
    def run(self, locus):
        locus.tag('nb_later')
`;
    await enable('Named class', notebook, 5, 'Earlier');
    await enable('Default class', notebook, 6);
    const level2 = new Level2Stage(database.repos, pool);
    await level2.refresh();
    const survey = mkdtempSync(path.join(os.tmpdir(), 'antares-level2-class-'));
    await simulateSurvey({ objects: 20, nights: 4, seed: 17, outDir: survey, processes: 1 });
    await ingestFiles(database.repos, expandInputs([survey]), { level2 });
    rmSync(survey, { recursive: true, force: true });
    const multi = compileLocusSearch({ query: { range: { 'properties.num_mag_values': { gte: 2 } } } });
    const { rows } = await database.repos.loci.search({ search: multi, sort: [], limit: 1000, offset: 0 });
    const updated = rows.filter((l) => l.tags.includes('nb_earlier') || l.tags.includes('nb_later'));
    expect(updated.length).toBeGreaterThan(0);
    // Both versions ran on every locus they saw: the named class in one, the last class in the other.
    for (const locus of updated) expect(locus.tags).toEqual(expect.arrayContaining(['nb_earlier', 'nb_later']));
    expect((await database.repos.streams.read('nb_earlier', 0, 10_000)).length).toBe(
      (await database.repos.streams.read('nb_later', 0, 10_000)).length,
    );
  });
});
