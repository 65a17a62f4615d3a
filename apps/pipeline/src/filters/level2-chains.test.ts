import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { compileLocusSearch, createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { expandInputs, ingestFiles } from '../ingest/ingest-files.ts';
import { simulateSurvey } from '../simulate/index.ts';
import { Level2Stage } from './level2.ts';
import { APT_INSTALL, FilterSandboxPool, missingSandboxPrerequisites } from './pool/index.ts';

// Chained filters in Level 2 (ADR 0055): a filter reading a property another enabled filter writes
// runs after it in the same pass, whatever the priorities say.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `Level 2 chain tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

// The producer (class API A) writes a property; the consumer (class API B in the devkit2 style) names it
// in setup() and fails on a locus that lacks it: run before its producer, it would fail on every locus.
const PRODUCER = `import antares.devkit as dk
class DetectionCount(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'chain_detections', 'type': 'int', 'description': 'detections so far'}]
    def run(self, locus):
        locus.properties['chain_detections'] = sum(1 for a in locus.alerts if a.properties.get('ant_mag') is not None)
`;
const CONSUMER = `from devkit2_poc.models import BaseFilter
class WellSampled(BaseFilter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'chain_detections_seen', 'type': 'int', 'description': 'what the producer wrote'}]
    OUTPUT_TAGS = [{'name': 'chain_well_sampled', 'description': 'three or more detections'}]
    def setup(self):
        self.input_properties = ['chain_detections']
    def _run(self, event_dict, ts):
        event_dict['chain_detections_seen'] = event_dict['chain_detections']
        event_dict['chain_well_sampled'] = event_dict['chain_detections'] >= 3
        return event_dict
`;
// Writes the same property, but its version is disabled: it neither runs nor orders anything.
const DISABLED_PRODUCER = `import antares.devkit as dk
class Overwriter(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'chain_detections', 'type': 'int', 'description': 'a wrong count'}]
    def run(self, locus):
        locus.properties['chain_detections'] = -1
`;

describe.skipIf(missing.length > 0)('chained filters in Level 2', () => {
  let database: TestDatabase;
  let pool: FilterSandboxPool;
  const add = async (name: string, code: string, priority: number, status: 'ENABLED' | 'DISABLED') => {
    const { repos } = database;
    const owner =
      (await repos.users.findByUsername('chain-owner')) ??
      (await repos.users.create({ username: 'chain-owner', email: 'chain@example.org', name: 'Chains', password_hash: 'x' }))!;
    const filter = (await repos.filters.create({ user_id: owner.user_id, name, description: name }))!;
    await database.db.updateTable('filter').set({ priority }).where('filter_id', '=', filter.filter_id).execute();
    const version = await repos.filters.createVersion({ filter_id: filter.filter_id, code, comment: 'v1', declared_outputs: null });
    await repos.filters.transition(filter.filter_id, version.filter_version_id, 'ENABLED', null);
    if (status === 'DISABLED') await repos.filters.transition(filter.filter_id, version.filter_version_id, 'DISABLED', 'off');
    return version.filter_version_id;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new FilterSandboxPool({ maxWorkers: 3, slotOffset: 170 });
  });
  afterAll(async () => {
    await pool?.close();
    await database?.close();
  });

  it('runs the consumer after the producer in the same pass though its priority comes first', async () => {
    // Priorities run lowest first: the consumer's 1 would put it before the producer's 5.
    const consumer = await add('Well sampled', CONSUMER, 1, 'ENABLED');
    await add('Overwriter', DISABLED_PRODUCER, 2, 'DISABLED');
    const producer = await add('Detection count', PRODUCER, 5, 'ENABLED');
    const level2 = new Level2Stage(database.repos, pool);
    await level2.refresh();
    expect(level2.versionIds).toEqual([producer, consumer]);

    const survey = mkdtempSync(path.join(os.tmpdir(), 'antares-chains-'));
    try {
      await simulateSurvey({ objects: 30, nights: 6, seed: 11, outDir: survey, processes: 1 });
      await ingestFiles(database.repos, expandInputs([survey]), { level2 });
    } finally {
      rmSync(survey, { recursive: true, force: true });
    }
    // The consumer never lacked the producer's property: it failed on no locus.
    expect(level2.stats.failures).toBe(0);
    const ran = compileLocusSearch({ query: { exists: { field: 'properties.chain_detections' } } });
    const { rows } = await database.repos.loci.search({ search: ran, sort: [], limit: 1000, offset: 0 });
    expect(rows.length).toBeGreaterThan(0);
    let wellSampled = 0;
    for (const locus of rows) {
      const count = locus.properties.chain_detections as number;
      expect(count).toBeGreaterThanOrEqual(1); // never the disabled filter's -1
      // What the consumer saw is what the producer wrote in that same pass, and it tagged from it.
      expect(locus.properties.chain_detections_seen).toBe(count);
      expect(locus.tags.includes('chain_well_sampled')).toBe(count >= 3);
      if (count >= 3) wellSampled++;
    }
    expect(wellSampled).toBeGreaterThan(0);
  });
});
