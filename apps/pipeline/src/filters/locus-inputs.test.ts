import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { emptyStats, ingestBatch } from '../ingest/ingest-batch.ts';
import { expandInputs } from '../ingest/ingest-files.ts';
import { locusAlertsCacheOf } from '../loci/locus-alerts-cache.ts';
import { type AlertPacket, decodeAvroFile, type LsstPacket } from '../sources/alert-avro.ts';
import { locusInputsFor } from './locus-inputs.ts';

// Level 2 builds the loci that ingestion has just recomputed from the alert lists ingestion keeps
// (ADR 0038), not from the database: the two must give filters exactly the same loci.
const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');

async function packets(folder: string): Promise<AlertPacket[]> {
  const out: AlertPacket[] = [];
  for (const file of expandInputs([path.join(SHARED, folder)]))
    for await (const r of decodeAvroFile(file)) if ('packet' in r) out.push(r.packet);
  return out;
}

/**
 * The next night's alert of the same DiaObject, with the first as its history, and a forced point of
 * another visit at the very MJD of that first detection: two alerts of a locus with the same MJD,
 * whose order then comes from their ids.
 */
function nextNight(p: LsstPacket): LsstPacket {
  const id = (BigInt(p.diaSourceId) + 1_000_000n).toString();
  const mjd = p.diaSource.midpointMjdTai as number;
  const forced = {
    diaForcedSourceId: (BigInt(p.diaSourceId) + 2_000_000n).toString(),
    visit: -1,
    midpointMjdTai: mjd,
    psfFlux: 10,
    psfFluxErr: 5,
    band: 'g',
  };
  return {
    ...p,
    diaSourceId: id,
    diaSource: { ...p.diaSource, diaSourceId: id, midpointMjdTai: mjd + 1 },
    prvDiaSources: [p.diaSource],
    prvDiaForcedSources: [forced],
  };
}

describe('locusInputsFor with the alert lists ingestion keeps', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('gives the same loci as the database: alerts, their order, surveys and GW associations', async () => {
    const { repos } = database;
    const rubin = (await packets('fink-broker/rubin_v9.0_fink_subset')).filter((p): p is LsstPacket => p.survey === 'lsst');
    const ztf = await packets('ztf-avro-alert');
    const stats = emptyStats();
    await ingestBatch(repos, [...rubin, ...ztf.slice(0, Math.ceil(ztf.length / 2))], stats);
    const touched = await ingestBatch(repos, [...rubin.map(nextNight), ...ztf.slice(Math.ceil(ztf.length / 2))], stats);
    const loci = await repos.loci.findMany(touched);
    const first = loci[0];
    const firstAlerts = await repos.alerts.listForFiltersByLoci([first.locus_id]);
    await repos.gravWaves.addAssociations([
      { gracedb_id: 'S250101a', alert_id: firstAlerts[0].alert_id, locus_id: first.locus_id, contour_level: 50, contour_area: 100 },
    ]);

    const revisions = await repos.loci.alertsRevisions(touched);
    const listed = locusAlertsCacheOf(repos.db).lookup(revisions, await repos.alertPartitions.archiveEpoch()).cached;
    // Every locus of the last batch is kept at its revision; Rubin ones hold two alerts of one MJD.
    expect([...listed.keys()].sort()).toEqual([...touched].sort());
    expect(loci.some((l) => new Set(listed.get(l.locus_id)!.map((a) => a.mjd)).size < listed.get(l.locus_id)!.length)).toBe(true);

    const fromLists = await locusInputsFor(repos, loci, listed);
    const fromDatabase = await locusInputsFor(repos, loci);
    expect(fromLists).toEqual(fromDatabase);
    expect(fromLists.find((l) => l.locus_id === first.locus_id)!.alerts[0].grav_wave_events).toEqual([
      { gracedb_id: 'S250101a', contour_level: 50, contour_area: 100 },
    ]);
    expect(new Set(fromLists.flatMap((l) => l.alerts.map((a) => a.survey)))).toEqual(new Set(['lsst', 'ztf']));
  });
});
