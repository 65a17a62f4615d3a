import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { compileLocusSearch, createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { emptyStats, ingestBatch } from '../ingest/ingest-batch.ts';
import { expandInputs } from '../ingest/ingest-files.ts';
import { decodeAvroFile, type LsstPacket } from '../sources/alert-avro.ts';
import { level1Lsst } from '../stages/level1.ts';
import { Level2Stage } from './level2.ts';
import { APT_INSTALL, FilterSandboxPool, missingSandboxPrerequisites } from './pool/index.ts';

// The real class-API-B filter written for Rubin alerts (../shared/filters) runs unchanged on real Rubin
// alerts and tags exactly the loci its own rules select.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `Rubin Level 2 tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared');
const FILTER_CODE = readFileSync(path.join(SHARED, 'filters/examples/class_api_b_lsst_quality.py'), 'utf8');
const TAG = 'lsst_scimma_quality_transient';

/** The filter's rules, written out from its source, applied to the raw DiaSource. */
function filterWouldTag(s: Record<string, unknown>): boolean {
  const required = [
    'snr',
    'ssObjectId',
    'psfFlux_flag',
    'centroid_flag',
    'shape_flag',
    'isDipole',
    'pixelFlags_saturated',
    'pixelFlags_edge',
    'pixelFlags_cr',
    'pixelFlags_streak',
  ];
  if (!required.every((k) => k in s)) return false; // REQUIRED_ALERT_PROPERTIES: skipped
  if (!((s.snr as number) > 10)) return false;
  if (![0, null, '0'].includes(s.ssObjectId as never)) return false;
  return required.slice(2).every((k) => !s[k]);
}

async function rubinPackets(folder: string): Promise<LsstPacket[]> {
  const out: LsstPacket[] = [];
  for (const file of expandInputs([path.join(SHARED, 'data', folder)])) {
    for await (const r of decodeAvroFile(file)) if ('packet' in r && r.packet.survey === 'lsst') out.push(r.packet);
  }
  return out;
}

const FILTER_FLAGS = [
  'psfFlux_flag',
  'centroid_flag',
  'shape_flag',
  'pixelFlags_saturated',
  'pixelFlags_edge',
  'pixelFlags_cr',
  'pixelFlags_streak',
];

/**
 * The next night's alert of the same DiaObject under a new id, with the first as its history: Level 2
 * needs two measurements, and the 9.0 alerts carry almost no history. None of the 25 real 9.0 alerts
 * passes the filter's cuts (SNR > 10 with no flag), so some nights are brighter and cleaner: every
 * second one is measured at SNR 12 with no flags, and every fourth of those gets a shape flag back.
 */
function nextNight(p: LsstPacket, index: number): LsstPacket {
  const id = (BigInt(p.diaSourceId) + 1_000_000n).toString();
  const diaSource: Record<string, unknown> = {
    ...p.diaSource,
    diaSourceId: id,
    midpointMjdTai: (p.diaSource.midpointMjdTai as number) + 1,
  };
  if (index % 2 === 0) {
    diaSource.snr = 12;
    for (const flag of FILTER_FLAGS) diaSource[flag] = false;
    if (index % 4 === 2) diaSource.shape_flag = true;
  }
  return { ...p, diaSourceId: id, diaSource, prvDiaSources: [p.diaSource], prvDiaForcedSources: [] };
}

describe.skipIf(missing.length > 0)('the Rubin example filter (class API B) in Level 2', () => {
  let database: TestDatabase;
  let pool: FilterSandboxPool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new FilterSandboxPool({ maxWorkers: 2, slotOffset: 200 });
    const { repos } = database;
    const owner = (await repos.users.create({ username: 'scimma', email: 'scimma@example.org', name: 'SCiMMA', password_hash: 'x' }))!;
    const filter = (await repos.filters.create({ user_id: owner.user_id, name: 'SCiMMA LSST quality', description: 'real filter' }))!;
    const version = await repos.filters.createVersion({
      filter_id: filter.filter_id,
      code: FILTER_CODE,
      comment: 'as published',
      declared_outputs: null,
    });
    await repos.filters.transition(filter.filter_id, version.filter_version_id, 'ENABLED', null);
  });
  afterAll(async () => {
    await pool?.close();
    await database?.close();
  });

  it('tags the loci whose newest Rubin alert passes its cuts, and no other', async () => {
    const level2 = new Level2Stage(database.repos, pool);
    await level2.refresh();
    const v9 = (await rubinPackets('fink-broker/rubin_v9.0_fink_subset')).filter((p) => level1Lsst(p.diaSource).passed);
    const v74 = await rubinPackets('fink-broker/rubin_v7.4_fink');
    const stats = emptyStats();
    const followUps = v9.map(nextNight);
    for (const batch of [v74, v9, followUps]) await level2.run(await ingestBatch(database.repos, batch, stats));

    const expected = new Set<string>();
    for (const p of followUps)
      if (filterWouldTag(p.diaSource)) expected.add((await database.repos.alerts.findById(`lsst:${p.diaSourceId}`))!.locus_id);
    expect(v9.filter((p) => filterWouldTag(p.diaSource))).toEqual([]);
    const search = compileLocusSearch({ query: { bool: { filter: { term: { tags: TAG } } } } });
    const { rows } = await database.repos.loci.search({ search, sort: [], limit: 1000, offset: 0 });
    expect(new Set(rows.map((r) => r.locus_id))).toEqual(expected);
    expect(expected.size).toBeGreaterThan(0);
    // The 7.4 alerts predate isDipole, a required property: the filter skipped them, as the real system does.
    for (const p of v74) expect('isDipole' in p.diaSource).toBe(false);
    expect(level2.stats.disabled).toEqual([]);
    // It ran on every 9.0 locus (two measurements each) and tagged only some.
    expect(v9.length).toBeGreaterThan(expected.size);
    // Its tag feeds its stream, with the locus' exact Rubin ids.
    const messages = await database.repos.streams.read(TAG, 0, 1000);
    expect(new Set(messages.map((m) => m.locus_id))).toEqual(expected);
    for (const m of messages) {
      const survey = (m.locus as { properties: { survey: { lsst: { dia_object_id: string[] } } } }).properties.survey;
      expect(survey.lsst.dia_object_id.every((id) => /^\d+$/.test(id))).toBe(true);
    }
  }, 120_000);
});
