import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Level2Stage } from '../filters/level2.ts';
import { APT_INSTALL, FilterSandboxPool, missingSandboxPrerequisites } from '../filters/pool/index.ts';
import { simulateSurvey } from '../simulate/index.ts';
import { InboxWatcher } from './inbox.ts';

// The running server's drop folder: files are ingested, moved aside, and filters enabled meanwhile run.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `inbox tests need ${missing.join(' and ')} for Level 2: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const TAGGER = `import antares.devkit as dk
class Seen(dk.Filter):
    OUTPUT_TAGS = [{'name': 'inbox_seen', 'description': 'ran on the locus'}]
    def run(self, locus):
        locus.tag('inbox_seen')
`;

describe.skipIf(missing.length > 0)('inbox', () => {
  let database: TestDatabase;
  let pool: FilterSandboxPool;
  let inbox: string;
  let survey: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new FilterSandboxPool({ maxWorkers: 2, slotOffset: 260 });
    inbox = mkdtempSync(path.join(os.tmpdir(), 'antares-inbox-'));
    survey = mkdtempSync(path.join(os.tmpdir(), 'antares-inbox-survey-'));
    await simulateSurvey({ objects: 20, nights: 4, seed: 77, outDir: survey, processes: 1 });
  });
  afterAll(async () => {
    await pool?.close();
    await database?.close();
    rmSync(inbox, { recursive: true, force: true });
    rmSync(survey, { recursive: true, force: true });
  });

  it('ingests dropped files with the filters enabled at that time, leaves .part files, and sets bad files aside', async () => {
    const { repos } = database;
    const level2 = new Level2Stage(repos, pool);
    await level2.refresh();
    expect(level2.filterCount).toBe(0);
    const lines: string[] = [];
    const watcher = new InboxWatcher(repos, inbox, { level2, log: (line) => lines.push(line) });
    expect(await watcher.scanOnce()).toBe(0);

    // A filter enabled after the stage started: the next scan loads it.
    const owner = (await repos.users.create({ username: 'inbox-owner', email: 'inbox@example.org', name: 'I', password_hash: 'x' }))!;
    const filter = (await repos.filters.create({ user_id: owner.user_id, name: 'Inbox seen', description: 'x' }))!;
    const version = await repos.filters.createVersion({ filter_id: filter.filter_id, code: TAGGER, comment: 'v1', declared_outputs: null });
    await repos.filters.transition(filter.filter_id, version.filter_version_id, 'ENABLED', null);

    const files = readdirSync(survey)
      .filter((f) => f.endsWith('.avro'))
      .sort();
    expect(files.length).toBeGreaterThan(1);
    writeFileSync(path.join(inbox, 'half-written.avro.part'), readFileSync(path.join(survey, files[0])));
    for (const f of files) renameSync(path.join(survey, f), path.join(inbox, f));
    writeFileSync(path.join(inbox, 'garbage.avro'), 'not an avro file');

    expect(await watcher.scanOnce()).toBe(files.length + 1);
    expect(level2.filterCount).toBe(1);
    expect(
      readdirSync(path.join(inbox, 'done'))
        .filter((f) => !f.endsWith('.summary.json'))
        .sort(),
    ).toEqual(files);
    // Beside each ingested file, its counts (an HTTP upload reports them as its status).
    for (const f of files) {
      const summary = JSON.parse(readFileSync(path.join(inbox, 'done', `${f}.summary.json`), 'utf8'));
      expect(summary.packets_read).toBeGreaterThan(0);
    }
    expect(readdirSync(path.join(inbox, 'failed')).sort()).toEqual(['garbage.avro', 'garbage.avro.error.txt']);
    expect(readFileSync(path.join(inbox, 'failed', 'garbage.avro.error.txt'), 'utf8')).toContain('no alert could be decoded');
    expect(existsSync(path.join(inbox, 'half-written.avro.part'))).toBe(true);
    expect(lines.some((l) => l.includes('garbage.avro failed'))).toBe(true);

    const loci = await repos.loci.newestForFilters(1000, 2);
    expect(loci.length).toBeGreaterThan(0);
    expect(loci.every((l) => l.tags.includes('inbox_seen'))).toBe(true);
    expect(await watcher.scanOnce()).toBe(0);

    // Disabled meanwhile: the next batch runs without it.
    await repos.filters.transition(filter.filter_id, version.filter_version_id, 'DISABLED', 'enough');
    await level2.refresh();
    expect(level2.filterCount).toBe(0);
  });

  it('polls the folder while started, and stops', async () => {
    await simulateSurvey({ objects: 5, nights: 1, seed: 78, outDir: survey, processes: 1 });
    const [file] = readdirSync(survey).filter((f) => f.endsWith('.avro'));
    const watcher = new InboxWatcher(database.repos, inbox, { pollMs: 50, log: () => {} });
    watcher.start();
    renameSync(path.join(survey, file), path.join(inbox, 'later.avro'));
    await expect.poll(() => existsSync(path.join(inbox, 'done', 'later.avro')), { timeout: 30_000 }).toBe(true);
    await watcher.stop();
    writeFileSync(path.join(inbox, 'after-stop.avro'), 'x');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(path.join(inbox, 'after-stop.avro'))).toBe(true);
  });
});
