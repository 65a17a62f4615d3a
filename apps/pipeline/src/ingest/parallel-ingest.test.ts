import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { angularSeparationDeg, htmId, htmTrixelVertices, unitVectorToRadec } from '@antares/astro';
import { createTestDatabase, openDatabase, type OpenedDatabase, Repositories, type TestDatabase } from '@antares/db';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { simulateSurvey } from '../simulate/index.ts';
import { type AlertPacket, decodeAvroFile, type ZtfPacket } from '../sources/alert-avro.ts';
import { ASSOCIATION_RADIUS_DEG } from '../stages/associate.ts';
import { postgresServerFor, SERVER_URL } from '../testing/postgres-server.ts';
import { expectSameOutcome } from '../testing/same-outcome.ts';
import { emptyStats, ingestBatch } from './ingest-batch.ts';
import { expandInputs } from './ingest-files.ts';
import { ingestPackets } from './ingest-packets.ts';
import { SKY_LOCK_LEVEL, skyLockTrixels } from './sky-locks.ts';

// Two ingest workers writing into one PostgreSQL database at once (per-trixel locks, docs/adr/0035):
// every simulated object is moved onto an edge or corner of a lock trixel, so its alerts fall in two
// or more regions, and the two workers get alternate batches of the same objects.
const reachable = await postgresServerFor('parallel ingest tests');

const BATCH = 8;
/** Real alerts: Fink's Rubin packets (schemas 7.4 and 9.0) and the schema's own samples. */
const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');

/** A point on an edge (k % 3 < 2: the middle of edge k) or at a corner (else) of a lock-level trixel. */
function edgePoint(trixel: number, k: number): { ra: number; dec: number } {
  const [a, b, c] = htmTrixelVertices(trixel);
  if (k % 3 === 2) return unitVectorToRadec(a);
  const [p, q] = k % 3 === 0 ? [a, b] : [b, c];
  const mid: [number, number, number] = [p[0] + q[0], p[1] + q[1], p[2] + q[2]];
  const norm = Math.hypot(...mid);
  return unitVectorToRadec([mid[0] / norm, mid[1] / norm, mid[2] / norm]);
}

/** The survey's ZTF packets, each object moved (rigidly, scatter kept) onto a trixel edge or corner. */
async function movedPackets(files: string[]): Promise<ZtfPacket[]> {
  const packets: ZtfPacket[] = [];
  for (const file of files) {
    for await (const record of decodeAvroFile(file)) if ('packet' in record && record.packet.survey === 'ztf') packets.push(record.packet);
  }
  const moves = new Map<string, { from: { ra: number; dec: number }; to: { ra: number; dec: number } }>();
  const used = new Set<string>();
  for (const p of packets) {
    if (moves.has(p.objectId)) continue;
    const from = { ra: p.candidate.ra as number, dec: p.candidate.dec as number };
    const trixel = htmId(from.ra, from.dec, SKY_LOCK_LEVEL);
    let to = edgePoint(trixel, moves.size);
    // Neighbouring trixels share corners and edges: two objects must never land on the same point.
    for (let k = moves.size + 1; used.has(`${to.ra.toFixed(6)},${to.dec.toFixed(6)}`); k++) to = edgePoint(trixel, k);
    used.add(`${to.ra.toFixed(6)},${to.dec.toFixed(6)}`);
    moves.set(p.objectId, { from, to });
  }
  for (const p of packets) {
    const { from, to } = moves.get(p.objectId)!;
    const scale = Math.cos((from.dec * Math.PI) / 180) / Math.cos((to.dec * Math.PI) / 180);
    for (const row of [p.candidate, ...p.prvCandidates, ...(p.fpHists ?? [])]) {
      if (typeof row.ra !== 'number' || typeof row.dec !== 'number') continue;
      row.ra = (to.ra + (row.ra - from.ra) * scale + 360) % 360;
      row.dec = to.dec + (row.dec - from.dec);
    }
  }
  return packets;
}

/** The second worker has its own connection pool, as a second `antares ingest` process would. */
function secondPool(database: TestDatabase): Promise<OpenedDatabase> {
  // Without a URL, openDatabase would quietly open an embedded database of its own.
  if (!database.url) throw new Error('the second worker needs a database on the PostgreSQL server');
  return openDatabase({ databaseUrl: database.url, poolSize: 4 });
}

/** Alternate batches to the two workers, so both hold alerts of the same objects at the same time. */
function alternateBatches<T>(packets: T[], batch = BATCH): [T[], T[]] {
  const shares: [T[], T[]] = [[], []];
  for (let i = 0; i < packets.length; i += batch) shares[(i / batch) % 2].push(...packets.slice(i, i + batch));
  return shares;
}

describe.skipIf(!reachable)('two ingest workers on one PostgreSQL database', () => {
  let survey: string;
  let single: TestDatabase;
  let parallel: TestDatabase;
  let secondWorker: OpenedDatabase;
  let packetsOf: () => Promise<ZtfPacket[]>;

  beforeAll(async () => {
    survey = mkdtempSync(path.join(os.tmpdir(), 'antares-parallel-ingest-'));
    await simulateSurvey({ objects: 60, nights: 8, seed: 2026, outDir: survey, processes: 1, lsst: false });
    const files = expandInputs([survey]);
    packetsOf = () => movedPackets(files);
    single = await createTestDatabase(SERVER_URL);
    parallel = await createTestDatabase(SERVER_URL);
    secondWorker = await secondPool(parallel);
  }, 120_000);
  afterAll(async () => {
    await secondWorker?.close();
    await single?.close();
    await parallel?.close();
    if (survey) rmSync(survey, { recursive: true, force: true });
  });

  it('stores the same loci, alerts and locus properties as one worker, and never two loci for one object', async () => {
    const packets = await packetsOf();
    // The objects' alerts really straddle lock regions.
    const regionsByObject = new Map<string, Set<number>>();
    for (const p of packets) {
      const regions = regionsByObject.get(p.objectId) ?? new Set<number>();
      regions.add(htmId(p.candidate.ra as number, p.candidate.dec as number, SKY_LOCK_LEVEL));
      regionsByObject.set(p.objectId, regions);
    }
    const straddling = [...regionsByObject.values()].filter((r) => r.size > 1).length;
    expect(straddling).toBeGreaterThan(regionsByObject.size / 2);

    const one = await ingestPackets(single.repos, packets, { batchSize: BATCH });

    const shares = alternateBatches(await packetsOf());
    const [a, b] = await Promise.all([
      ingestPackets(parallel.repos, shares[0], { batchSize: BATCH }),
      ingestPackets(new Repositories(secondWorker.db, 'postgres'), shares[1], { batchSize: BATCH }),
    ]);
    expect(a.packetsStored + b.packetsStored).toBe(one.packetsStored);
    expect(a.alertsStored + b.alertsStored).toBe(one.alertsStored);
    expect(a.lociCreated + b.lociCreated).toBe(one.lociCreated);

    const got = await expectSameOutcome(single, parallel);
    // No duplicates: one locus per object, no two loci within the association radius.
    const objects = await parallel.db
      .selectFrom('alert')
      .select(['locus_id', sql<string>`properties->>'ztf_object_id'`.as('object')])
      .distinct()
      .execute();
    expect(new Set(objects.map((o) => o.object)).size).toBe(got.loci);
    expect(new Set(objects.map((o) => o.locus_id)).size).toBe(got.loci);
    expect(objects.length).toBe(got.loci);
    for (let i = 0; i < got.positions.length; i++) {
      for (let j = i + 1; j < got.positions.length; j++) {
        const [p, q] = [got.positions[i], got.positions[j]];
        expect(angularSeparationDeg(p.ra, p.dec, q.ra, q.dec)).toBeGreaterThan(ASSOCIATION_RADIUS_DEG);
      }
    }
  }, 300_000);
});

describe.skipIf(!reachable)('two ingest workers with Rubin packets carrying a year of history', () => {
  let survey: string;
  let single: TestDatabase;
  let parallel: TestDatabase;
  let secondWorker: OpenedDatabase;
  let files: string[];

  beforeAll(async () => {
    survey = mkdtempSync(path.join(os.tmpdir(), 'antares-parallel-ingest-rubin-'));
    await simulateSurvey({ objects: 150, nights: 6, seed: 2027, outDir: survey, processes: 1, lsstHistoryDays: 365 });
    files = expandInputs([survey]);
    single = await createTestDatabase(SERVER_URL);
    parallel = await createTestDatabase(SERVER_URL);
    secondWorker = await secondPool(parallel);
  }, 120_000);
  afterAll(async () => {
    await secondWorker?.close();
    await single?.close();
    await parallel?.close();
    if (survey) rmSync(survey, { recursive: true, force: true });
  });

  async function packets(): Promise<AlertPacket[]> {
    const out: AlertPacket[] = [];
    for (const file of files) for await (const record of decodeAvroFile(file)) if ('packet' in record) out.push(record.packet);
    return out;
  }

  it('stores the same loci, alerts (detections and forced photometry) and properties as one worker', async () => {
    const all = await packets();
    expect(all.some((p) => p.survey === 'lsst' && p.prvDiaForcedSources.length > 100)).toBe(true);
    const one = await ingestPackets(single.repos, all, { batchSize: BATCH });
    const [first, second] = alternateBatches(await packets());
    const [a, b] = await Promise.all([
      ingestPackets(parallel.repos, first, { batchSize: BATCH }),
      ingestPackets(new Repositories(secondWorker.db, 'postgres'), second, { batchSize: BATCH }),
    ]);
    expect(a.alertsStored + b.alertsStored).toBe(one.alertsStored);
    await expectSameOutcome(single, parallel);
  }, 300_000);
});

describe.skipIf(!reachable)('two ingest workers with real Rubin packets', () => {
  let single: TestDatabase;
  let parallel: TestDatabase;
  let secondWorker: OpenedDatabase;
  const files = expandInputs(
    ['fink-broker/rubin_v7.4_fink', 'fink-broker/rubin_v9.0_fink_subset', 'lsst-alert_packet/schema'].map((dir) => path.join(DATA, dir)),
  );

  beforeAll(async () => {
    single = await createTestDatabase(SERVER_URL);
    parallel = await createTestDatabase(SERVER_URL);
    secondWorker = await secondPool(parallel);
  }, 120_000);
  afterAll(async () => {
    await secondWorker?.close();
    await single?.close();
    await parallel?.close();
  });

  async function packets(): Promise<AlertPacket[]> {
    const out: AlertPacket[] = [];
    for (const file of files) for await (const record of decodeAvroFile(file)) if ('packet' in record) out.push(record.packet);
    return out;
  }

  it('stores the same loci, alerts and properties as one worker', async () => {
    const all = await packets();
    expect(all.filter((p) => p.survey === 'lsst').length).toBeGreaterThanOrEqual(125);
    // Batches of two: the workers take turns through every field the packets cover.
    const one = await ingestPackets(single.repos, all, { batchSize: 2 });
    expect(one.alertsStored).toBeGreaterThan(all.length);
    const [first, second] = alternateBatches(await packets(), 2);
    const [a, b] = await Promise.all([
      ingestPackets(parallel.repos, first, { batchSize: 2 }),
      ingestPackets(new Repositories(secondWorker.db, 'postgres'), second, { batchSize: 2 }),
    ]);
    expect(a.packetsStored + b.packetsStored).toBe(one.packetsStored);
    expect(a.alertsStored + b.alertsStored).toBe(one.alertsStored);
    expect(a.lociCreated + b.lociCreated).toBe(one.lociCreated);
    await expectSameOutcome(single, parallel);
  }, 300_000);
});

describe.skipIf(!reachable)('two ingest workers meeting a new month', () => {
  let database: TestDatabase;
  let secondWorker: OpenedDatabase;
  let survey: string;

  beforeAll(async () => {
    survey = mkdtempSync(path.join(os.tmpdir(), 'antares-parallel-months-'));
    await simulateSurvey({ objects: 40, nights: 1, seed: 2028, outDir: survey, processes: 1, lsst: false });
    database = await createTestDatabase(SERVER_URL);
    secondWorker = await secondPool(database);
  }, 120_000);
  afterAll(async () => {
    await secondWorker?.close();
    await database?.close();
    if (survey) rmSync(survey, { recursive: true, force: true });
  });

  it("makes a month's partition once when two workers ask for it together (migration 0020)", async () => {
    const [first, second] = [new pg.Client(database.url!), new pg.Client(database.url!)];
    await Promise.all([first.connect(), second.connect()]);
    try {
      const secondPid = (await second.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await first.query('BEGIN');
      await first.query('SELECT alert_partitions_ensure(ARRAY[1900]::bigint[])');
      // The second asks while the first has made the partition but not committed it: it waits for the
      // first's lock, then must take the committed partition as made, not fail making it again.
      const made = second.query<{ made: number }>('SELECT alert_partitions_ensure(ARRAY[1900]::bigint[]) AS made');
      await waitFor(
        async () =>
          (await first.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event = $2', [secondPid, 'advisory'])).rowCount === 1,
      );
      await first.query('COMMIT');
      expect((await made).rows[0].made).toBe(0);
      expect((await first.query("SELECT 1 FROM pg_class WHERE relname = 'alert_p57000'")).rowCount).toBe(1);
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
  }, 60_000);

  it("does not hold back another worker's batch elsewhere in the sky while a batch that made a new month's partition is still open", async () => {
    const packets: ZtfPacket[] = [];
    for (const file of expandInputs([survey]))
      for await (const record of decodeAvroFile(file)) if ('packet' in record) packets.push(record.packet as ZtfPacket);
    const east = packets.filter((p) => (p.candidate.ra as number) < 180);
    const eastRegions = new Set(skyLockTrixels(east.map((p) => ({ ra: p.candidate.ra as number, dec: p.candidate.dec as number }))));
    const west = packets.filter(
      (p) =>
        (p.candidate.ra as number) >= 180 &&
        !skyLockTrixels([{ ra: p.candidate.ra as number, dec: p.candidate.dec as number }]).some((t) => eastRegions.has(t)),
    );
    expect(east.length).toBeGreaterThan(0);
    expect(west.length).toBeGreaterThan(0);
    // The first worker's batch stops before its commit (commitAfter) until the second's batch is stored.
    // A thenable, so that the test knows when the batch has got there: its writes are all made by then.
    let reachedCommit!: () => void;
    const atCommit = new Promise<void>((resolve) => (reachedCommit = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const commitAfter = {
      then(onDone: () => void, onFailed: (error: unknown) => void) {
        reachedCommit();
        return released.then(onDone, onFailed);
      },
    } as unknown as Promise<void>;
    const firstStats = emptyStats();
    const first = ingestBatch(database.repos, east, firstStats, { commitAfter });
    await atCommit;
    const secondStats = emptyStats();
    // Were the partition made inside the first batch's transaction, its lock on the whole alert table
    // would hold this batch, which the first one's commit waits for: the test would time out.
    await ingestBatch(new Repositories(secondWorker.db, 'postgres'), west, secondStats);
    release();
    await first;
    expect(secondStats.packetsStored).toBeGreaterThan(0);
    expect(firstStats.packetsStored).toBeGreaterThan(0);
    const stored = await database.db
      .selectFrom('alert')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(firstStats.alertsStored + secondStats.alertsStored);
  }, 60_000);
});

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}
