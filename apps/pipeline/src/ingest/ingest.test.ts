import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { htmId } from '@antares/astro';
import { compileLocusSearch, createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ZtfPacket } from '../sources/alert-avro.ts';
import { decodeAvroFile } from '../sources/alert-avro.ts';
import { level1 } from '../stages/level1.ts';
import { emptyStats, ingestBatch, type IngestStats } from './ingest-batch.ts';
import { expandInputs, ingestFiles } from './ingest-files.ts';

// Every real ZTF packet under ../shared/data goes through the whole pipeline.
const SHARED_DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');
const files = expandInputs([SHARED_DATA]);

let database: TestDatabase;
let first: IngestStats;
const packets: ZtfPacket[] = [];
let decodedPackets = 0;
const rowsByCandid = new Map<string, Array<Record<string, unknown>>>();

beforeAll(async () => {
  database = await createTestDatabase();
  for (const file of files) {
    for await (const record of decodeAvroFile(file)) {
      if (!('packet' in record)) continue;
      decodedPackets++;
      if (record.packet.survey === 'ztf') packets.push(record.packet);
    }
  }
  for (const packet of packets) {
    for (const row of [packet.candidate, ...packet.prvCandidates]) {
      if (row.candid === null || row.candid === undefined) continue;
      const key = String(row.candid);
      rowsByCandid.set(key, [...(rowsByCandid.get(key) ?? []), row]);
    }
  }
  first = await ingestFiles(database.repos, files, { batchSize: 64 });
});
afterAll(async () => database?.close());

async function snapshot() {
  const { db } = database;
  const loci = await db.selectFrom('locus').select(['locus_id', 'ra', 'dec', 'htm16', 'properties']).orderBy('locus_id').execute();
  const alerts = await db.selectFrom('alert').select(['alert_id', 'locus_id', 'properties']).orderBy('alert_id').execute();
  const thumbnails = await db.selectFrom('alert_thumbnail').select(['filename']).orderBy('filename').execute();
  return { loci, alerts, thumbnails };
}

describe('ingesting every ZTF packet of the shared data', () => {
  it('accounts for every record: stored, rejected by Level 1 with a reason, or undecodable with a reason', () => {
    expect(packets.length).toBe(295);
    const rejected = Object.values(first.rejected).reduce((a, b) => a + b, 0);
    expect(first.packetsRead).toBe(decodedPackets); // the Rubin packets too (ingest-lsst.test.ts)
    expect(first.packetsStored + rejected + first.duplicates).toBe(first.packetsRead);
    for (const u of first.undecodable) expect(u.reason).toMatch(/\S/);
    // Only records of other surveys (ATLAS, ELAsTiCC) and the Rubin schema's fake 7.4 sample are undecodable.
    for (const u of first.undecodable) expect(u.reason).toMatch(/not a ZTF or Rubin alert packet|which is not an MJD/);
    expect(first.thumbnailErrors).toBe(0);
  });

  it('stores each accepted packet on the locus its ZTF id finds, with ant_* values equal to the packet', async () => {
    let checked = 0;
    for (const packet of packets) {
      const alert = await database.repos.alerts.findById(`ztf_candidate:${packet.candid}`);
      if (!level1(packet.candidate).passed) {
        expect(alert, packet.candid).toBeUndefined();
        continue;
      }
      const search = compileLocusSearch({ query: { bool: { filter: { term: { 'properties.survey.ztf.id': packet.objectId } } } } });
      const { rows } = await database.repos.loci.search({ search, sort: [], limit: 10, offset: 0 });
      expect(
        rows.map((r) => r.locus_id),
        packet.objectId,
      ).toContain(alert!.locus_id);
      const p = alert!.properties;
      // The same candid can come in several packets (as a trigger or a history row), sometimes with
      // reprocessed photometry: the stored values must equal one of those source rows exactly.
      const sources = rowsByCandid.get(packet.candid) ?? [];
      const matching = sources.filter(
        (c) =>
          p.ant_mag === c.magpsf &&
          p.ant_magerr === c.sigmapsf &&
          p.ant_ra === c.ra &&
          p.ant_dec === c.dec &&
          p.ant_maglim === (c.diffmaglim ?? null) &&
          Math.abs((p.ant_mjd as number) - ((c.jd as number) - 2400000.5)) < 1e-9 &&
          p.ant_passband === ({ 1: 'g', 2: 'R', 3: 'i' } as Record<number, string>)[c.fid as number],
      );
      expect(matching.length, packet.candid).toBeGreaterThan(0);
      expect(p.ant_survey).toBe(1);
      expect(p.ztf_candid).toBe(packet.candid);
      expect(p.ztf_object_id).toBe(packet.objectId);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('finds the locus of every stored ZTF object by properties.ztf_object_id', async () => {
    const objectIds = new Set(packets.filter((p) => level1(p.candidate).passed).map((p) => p.objectId));
    for (const objectId of objectIds) {
      const search = compileLocusSearch({ query: { bool: { filter: { term: { 'properties.ztf_object_id': objectId } } } } });
      const { count } = await database.repos.loci.search({ search, sort: [], limit: 1, offset: 0 });
      expect(count, objectId).toBe(1);
    }
  });

  it('gives each locus the standard HTM level-16 id of its position', async () => {
    const { loci } = await snapshot();
    for (const locus of loci) expect(locus.htm16).toBe(htmId(locus.ra, locus.dec));
  });

  it('is idempotent: ingesting the same files again changes no count and no property', async () => {
    const before = await snapshot();
    const again = await ingestFiles(database.repos, files, { batchSize: 100 });
    const after = await snapshot();
    expect(again.alertsStored).toBe(0);
    expect(again.lociCreated).toBe(0);
    expect(again.duplicates).toBe(first.packetsStored + first.duplicates);
    expect(after).toEqual(before);
  });

  it('refuses a packet or history row whose time is corrupt (Level 1 bad_time), storing the rest of the batch', async () => {
    const fresh = await createTestDatabase();
    try {
      const [good, other] = packets.filter((p) => level1(p.candidate).passed);
      const corrupt: ZtfPacket = { ...other, candidate: { ...other.candidate, jd: 1e300 } };
      // A history detection of its own id with a time no partition can hold.
      const badRow = { ...good.candidate, candid: 7777777777, jd: 1e300 };
      const withBadRow: ZtfPacket = { ...good, prvCandidates: [...good.prvCandidates, badRow] };
      const stats = emptyStats();
      await ingestBatch(fresh.repos, [corrupt, withBadRow], stats);
      expect(stats.rejected).toEqual({ 'bad_time: MJD': 1 });
      expect(stats.packetsStored).toBe(1);
      expect(stats.historyRowsRejected).toBeGreaterThanOrEqual(1);
      expect(await fresh.repos.alerts.findById('ztf_candidate:7777777777')).toBeUndefined();
      expect(await fresh.repos.alerts.findById(`ztf_candidate:${good.candid}`)).toBeDefined();
      for (const partition of await fresh.repos.alertPartitions.listAttached()) {
        expect(partition.fromMjd).toBeGreaterThan(33000);
        expect(partition.toMjd).toBeLessThan(89000);
      }
    } finally {
      await fresh.close();
    }
  });
});
