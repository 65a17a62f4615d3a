import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

import { createTestDatabase, FilterFileStore, Repositories, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BacktestResults } from '../backtest/results.ts';
import { BacktestRunner } from '../backtest/runner.ts';
import { expandInputs, ingestFiles } from '../ingest/ingest-files.ts';
import { simulateSurvey } from '../simulate/index.ts';
import { createFilterSandbox } from './filter-sandbox.ts';
import { Level2Stage } from './level2.ts';
import { APT_INSTALL, FilterSandboxPool, missingSandboxPrerequisites } from './pool/index.ts';

// Filter data files (REQUIRES_FILES, ADR 0053) in the real sandbox: the filter reads them as
// self.files (bytes, before setup()) and from its working directory (open(), np.load()), read-only,
// in a dry run, a backtest and Level 2 alike, each with the bytes its version was submitted with.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `filter data file tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const WEIGHTED = `import numpy as np
import antares.devkit as dk

class Weighted(dk.Filter):
    REQUIRES_FILES = ['weights.npy', 'threshold.txt']
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'files_score', 'type': 'float', 'description': 'weights times points'}]
    OUTPUT_TAGS = [{'name': 'files_weighted', 'description': 'score over the threshold file'}]

    def setup(self):
        assert isinstance(self.files['threshold.txt'], bytes), type(self.files['threshold.txt'])
        self.threshold = float(self.files['threshold.txt'].decode())
        self.weights = np.load('weights.npy')
        with open('threshold.txt') as fh:
            assert float(fh.read()) == self.threshold, 'the working directory holds the same file'
        try:
            open('scratch.txt', 'w')
        except OSError:
            pass
        else:
            raise RuntimeError('the files folder is writable')

    def run(self, locus):
        score = float(self.weights.sum()) * locus.properties['num_mag_values']
        locus.properties['files_score'] = score
        if score > self.threshold:
            locus.tag('files_weighted')
`;

/** A real .npy file, written by numpy. */
function npy(values: number[]): Buffer {
  return execFileSync('/usr/bin/python3', [
    '-c',
    `import io, sys, numpy as np; b = io.BytesIO(); np.save(b, np.array(${JSON.stringify(values)})); sys.stdout.buffer.write(b.getvalue())`,
  ]);
}

describe.skipIf(missing.length > 0)('filter data files in the sandbox', () => {
  let database: TestDatabase;
  let repos: Repositories;
  let storeDir: string;
  let pool: FilterSandboxPool;
  let versionId: number;
  let filterId: number;
  const files = { 'weights.npy': npy([0.25, 0.25]), 'threshold.txt': Buffer.from('1.5') };

  const store = async (name: string, bytes: Uint8Array) => {
    const stored = await repos.filterFiles.store!.write(Readable.from([bytes]), 1 << 20);
    await repos.filterFiles.put(filterId, { name, ...stored });
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    storeDir = mkdtempSync(path.join(os.tmpdir(), 'antares-filter-files-'));
    repos = new Repositories(database.db, database.kind, undefined, new FilterFileStore(storeDir));
    const survey = mkdtempSync(path.join(os.tmpdir(), 'antares-filter-files-survey-'));
    await simulateSurvey({ objects: 30, nights: 5, seed: 48, outDir: survey, processes: 1 });
    await ingestFiles(repos, expandInputs([survey]));
    rmSync(survey, { recursive: true, force: true });
    const user = (await repos.users.create({ username: 'files-owner', email: 'files@example.org', name: 'F', password_hash: 'x' }))!;
    filterId = (await repos.filters.create({ user_id: user.user_id, name: 'Weighted', description: 'uses data files' }))!.filter_id;
    const version = await repos.filters.createVersion({
      filter_id: filterId,
      code: WEIGHTED,
      comment: 'v1',
      declared_outputs: { requires_files: ['weights.npy', 'threshold.txt'], tags: ['files_weighted'] },
    });
    versionId = version.filter_version_id;
    // Uploaded after submission: the version, still waiting for review, takes them.
    for (const [name, bytes] of Object.entries(files)) await store(name, bytes);
    await repos.filters.transition(filterId, versionId, 'REVIEWED', null);
    await repos.filters.transition(filterId, versionId, 'ENABLED', null);
    pool = new FilterSandboxPool({ maxWorkers: 2, slotOffset: 700 });
  }, 180_000);
  afterAll(async () => {
    await pool?.close();
    await database?.close();
    if (storeDir) rmSync(storeDir, { recursive: true, force: true });
  });

  it('checks a version before its files exist up to its declarations, and refuses to load it without them otherwise', async () => {
    const { sandbox, close } = createFilterSandbox(repos);
    try {
      const pending = await sandbox!.validate(WEIGHTED, undefined, {});
      expect(pending).toMatchObject({ ok: true, outputs: { requires_files: ['weights.npy', 'threshold.txt'], class_name: 'Weighted' } });
      expect((pending as { outputs: Record<string, unknown> }).outputs).not.toHaveProperty('files_missing');
      const loaded = await pool.load('without-files', WEIGHTED);
      expect(loaded.ok).toBe(false);
      expect(loaded.error?.message).toContain('REQUIRES_FILES not provided');
    } finally {
      await close();
    }
  });

  it('tags in a dry run with the files as bytes and in its read-only working directory', async () => {
    const { sandbox, close } = createFilterSandbox(repos);
    try {
      const loci = await repos.loci.newestForFilters(30, 2);
      const report = await sandbox!.dryRun(WEIGHTED, loci, undefined, files);
      expect(report.load_error).toBeNull();
      expect(report.counts.error).toBe(0);
      expect(report.counts.tagged).toBeGreaterThan(0);
      for (const locus of report.loci.filter((l) => l.status === 'ok')) {
        expect(locus.new_properties.files_score).toBeCloseTo(
          0.5 * Number(loci.find((l) => l.locus_id === locus.locus_id)!.properties.num_mag_values),
        );
      }
    } finally {
      await close();
    }
  }, 120_000);

  it('tags in Level 2 with the enabled version’s files, and keeps them when the filter’s file is replaced', async () => {
    const loci = (await repos.loci.newestForFilters(100, 2)).map((l) => l.locus_id);
    // A new threshold no locus passes: the enabled version still runs with the one it was reviewed with.
    await store('threshold.txt', Buffer.from('1000000'));
    expect((await repos.filterFiles.versionFiles(versionId)).find((f) => f.name === 'threshold.txt')!.size).toBe(3);
    const level2 = new Level2Stage(repos, pool);
    await level2.refresh();
    expect(level2.filterCount).toBe(1);
    await level2.run(loci);
    expect(level2.stats.failures).toBe(0);
    const tagged = (await repos.loci.findMany(loci)).filter((l) => l.tags.includes('files_weighted'));
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.every((l) => Number(l.properties.num_mag_values) * 0.5 > 1.5)).toBe(true);
  }, 120_000);

  it('tags in a backtest of the version, with its files', async () => {
    const runner = new BacktestRunner(repos, { pollMs: 100, slotOffset: 710, limits: { locusTimeoutMs: 2000 } });
    runner.start();
    try {
      const user = (await repos.filters.findById(filterId))!.user_id;
      const job = await repos.backtests.create({
        user_id: user,
        filter_id: filterId,
        filter_version_id: versionId,
        code: WEIGHTED,
        filter_class: null,
        params: { from_mjd: 0, to_mjd: 1e6, search: null, max_loci: 1000, granularity: 'locus' } as never,
      });
      runner.wake();
      let row = (await repos.backtests.findById(job.backtest_id))!;
      for (let i = 0; i < 2400 && !['done', 'failed', 'cancelled'].includes(row.state); i++) {
        await new Promise((r) => setTimeout(r, 50));
        row = (await repos.backtests.findById(job.backtest_id))!;
      }
      expect(row.error ?? null).toBeNull();
      expect(row.state).toBe('done');
      expect((row.results as unknown as BacktestResults).tagged_loci).toBeGreaterThan(0);
    } finally {
      await runner.close();
    }
  }, 180_000);
});
