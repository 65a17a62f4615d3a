import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type BacktestJobRow, createTestDatabase, type JsonObject, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { APT_INSTALL, FilterSandboxPool, missingSandboxPrerequisites } from '../filters/pool/index.ts';
import { expandInputs, ingestFiles } from '../ingest/ingest-files.ts';
import { simulateSurvey } from '../simulate/index.ts';
import type { LocusOutcome } from './replay.ts';
import type { BacktestResults } from './results.ts';
import { BacktestRunner } from './runner.ts';

// A backtest of a chained filter (ADR 0055) replays the enabled filter it reads from before it at every
// step, on the same loci, and reports only its own results.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `Backtest chain tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const PRODUCER = `import antares.devkit as dk
class DetectionCount(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'bt_chain_detections', 'type': 'int', 'description': 'detections so far'}]
    OUTPUT_TAGS = [{'name': 'bt_chain_counted', 'description': 'counted'}]
    def run(self, locus):
        locus.properties['bt_chain_detections'] = sum(1 for a in locus.alerts if a.properties.get('ant_mag') is not None)
        locus.tag('bt_chain_counted')
`;
// Checks at each step that what it reads is what the producer wrote at that same step (the step's own
// detections) and that the producer's tag came with it.
const CONSUMER = `from devkit2_poc.models import BaseFilter
class Checked(BaseFilter):
    INPUT_ALERT_PROPERTIES = ['ant_mag']
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'bt_chain_seen', 'type': 'int', 'description': 'what the producer wrote'}]
    OUTPUT_TAGS = [{'name': 'bt_chain_many', 'description': 'four or more detections'}]
    def setup(self):
        self.input_properties = ['bt_chain_detections']
    def _run(self, event_dict, ts):
        detections = int(ts['ant_mag'].notna().sum())
        if event_dict['bt_chain_detections'] != detections:
            raise ValueError(f"stale: {event_dict['bt_chain_detections']} != {detections}")
        event_dict['bt_chain_seen'] = event_dict['bt_chain_detections']
        event_dict['bt_chain_many'] = detections >= 4
        return event_dict
`;

describe.skipIf(missing.length > 0)('backtests of chained filters', () => {
  let database: TestDatabase;
  let survey: string;
  let userId = 0;

  beforeAll(async () => {
    survey = mkdtempSync(path.join(os.tmpdir(), 'antares-backtest-chains-'));
    await simulateSurvey({ objects: 25, nights: 6, seed: 41, outDir: survey, processes: 1 });
    database = await createTestDatabase();
    await ingestFiles(database.repos, expandInputs([survey]));
    userId = (await database.repos.users.create({ username: 'bt-chain', email: 'btc@example.org', name: 'B', password_hash: 'x' }))!
      .user_id;
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    if (survey) rmSync(survey, { recursive: true, force: true });
  });

  const backtest = async (): Promise<BacktestJobRow> => {
    const runner = new BacktestRunner(database.repos, { pollMs: 100, slotOffset: 680, limits: { locusTimeoutMs: 5000 } });
    try {
      runner.start();
      const job = await database.repos.backtests.create({
        user_id: userId,
        filter_id: null,
        filter_version_id: null,
        code: CONSUMER,
        filter_class: null,
        params: { from_mjd: 0, to_mjd: 1e6, search: null, max_loci: 10_000, granularity: 'alert' } as never,
      });
      runner.wake();
      for (let i = 0; i < 2400; i++) {
        const now = (await database.repos.backtests.findById(job.backtest_id))!;
        if (['done', 'failed', 'cancelled'].includes(now.state)) return now;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the backtest never finished');
    } finally {
      await runner.close();
    }
  };

  it('replays the producer before the consumer at each step and reports only the consumer', async () => {
    // Without an enabled producer, every step is an error naming the property.
    const alone = await backtest();
    expect(alone.state).toBe('done');
    const aloneResults = alone.results as unknown as BacktestResults;
    expect(aloneResults.dependencies).toEqual([]);
    expect(aloneResults.errors).toHaveLength(1);
    expect(aloneResults.errors[0].example.message).toContain('bt_chain_detections');
    expect(aloneResults.errors[0].count).toBe(aloneResults.steps);

    // The producer enabled, with the outputs its code declares (read by loading it, as submission does).
    const pool = new FilterSandboxPool({ maxWorkers: 1, slotOffset: 690 });
    const outputs = await pool.load('producer', PRODUCER).finally(() => pool.close());
    expect(outputs.ok).toBe(true);
    const filter = (await database.repos.filters.create({ user_id: userId, name: 'Detection count', description: 'counts' }))!;
    await database.repos.filters.update(filter.filter_id, { public: true }); // a private one is not named (filter-chains.test.ts)
    const version = await database.repos.filters.createVersion({
      filter_id: filter.filter_id,
      code: PRODUCER,
      comment: 'v1',
      declared_outputs: outputs.outputs as unknown as JsonObject,
    });
    await database.repos.filters.transition(filter.filter_id, version.filter_version_id, 'ENABLED', null);

    const chained = await backtest();
    expect(chained.state).toBe('done');
    const results = chained.results as unknown as BacktestResults;
    expect(results.dependencies).toEqual([
      {
        filter_id: String(filter.filter_id),
        filter_version_id: String(version.filter_version_id),
        name: 'Detection count',
        loaded: true,
        load_error: null,
      },
    ]);
    // Fed at every step with the producer's count of that step: never stale, never missing.
    expect(results.errors).toEqual([]);
    expect(results.steps).toBe(aloneResults.steps);
    expect(results.tagged_loci).toBeGreaterThan(0);
    // Only the consumer's outputs: the producer's tag and property are not its results.
    expect(results.properties.map((p) => p.name)).toEqual(['bt_chain_seen']);
    const outcomes = (await database.repos.backtests.outcomes(chained.backtest_id)).map((r) => r.outcome as unknown as LocusOutcome);
    for (const o of outcomes) {
      expect(o.tags.every((t) => t === 'bt_chain_many')).toBe(true);
      expect(Object.keys(o.properties)).toEqual(o.steps > 0 ? ['bt_chain_seen'] : []);
    }
    // The stored loci got nothing from either filter.
    const loci = await database.repos.loci.findMany(outcomes.map((o) => o.locus_id));
    for (const l of loci) expect(l.properties.bt_chain_detections).toBeUndefined();
  }, 300_000);
});
