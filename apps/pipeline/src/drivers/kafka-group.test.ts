import { createTestDatabase, openDatabase, type OpenedDatabase, Repositories, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { IngestStats } from '../ingest/ingest-batch.ts';
import { SchemaRegistry } from '../sources/schema-sources.ts';
import { handleAlertBatch } from './alert-kafka.ts';
import { type KafkaBatch, kafkajsPort } from './kafka-batch.ts';
import { recordAlertStream, type RecordedStream, type SchemaRegistryServer, startSchemaRegistry } from './recorded-stream.ts';

// The alert consumer's batch handler in a consumer group, driven by a recorded stream of the real ZTF
// and Rubin packets (recorded-stream.ts). No Kafka broker runs here: what is tested is the handler's
// order (ingest, then commit the next offset) and what crashes, replays and several members sharing
// the partitions leave in the database. Under DATABASE_URL the two members are two connection pools
// of one PostgreSQL database writing at the same time (the sky locks of ADR 0035 order them).
const MAX_MESSAGES = 3; // per fetched batch
const INGEST_BATCH = 2; // packets per transaction: a fetched batch of 3 alerts takes two transactions
const CRASH_ON_WRITE = 4;

let registry: SchemaRegistryServer;
let clean: TestDatabase;
let cleanStream: RecordedStream;
let cleanBatches = 0;
let cleanHeartbeats = 0;
const cleanStats = new Map<string, IngestStats>();
const options = () => ({ batchSize: INGEST_BATCH, schemas: new SchemaRegistry(registry.url) });
const batchKey = (batch: KafkaBatch) => `${batch.topic}[${batch.partition}]@${batch.messages[0].offset}`;

beforeAll(async () => {
  registry = await startSchemaRegistry();
  clean = await createTestDatabase();
  cleanStream = recordAlertStream();
  const [all] = cleanStream.assign(1);
  const port = cleanStream.port(all);
  cleanBatches = await cleanStream.consume(all, MAX_MESSAGES, async (batch) => {
    cleanStats.set(batchKey(batch), await handleAlertBatch(clean.repos, batch, port, options()));
  });
  cleanHeartbeats = port.heartbeats;
});
afterAll(async () => {
  await clean?.close();
  await registry?.close();
});

/** Alert properties stamped with the time of ingestion: they differ between any two runs. */
const RECEIPT_TIMES = new Set(['ant_time_received', 'ant_input_msg_time']);

/** The stored loci, alerts and cutouts; a locus (its id is random) is named by its alerts' ids. */
async function contents(database: TestDatabase) {
  const { db } = database;
  const alerts = await db
    .selectFrom('alert')
    .select(['alert_id', 'locus_id', 'survey', 'mjd', 'properties', 'summary', 'grav_wave_events'])
    .orderBy('alert_id')
    .execute();
  const idsByLocus = new Map<string, string[]>();
  for (const a of alerts) idsByLocus.set(a.locus_id, [...(idsByLocus.get(a.locus_id) ?? []), a.alert_id]);
  const name = (locusId: string) => (idsByLocus.get(locusId) ?? []).join(',');
  const loci = await db.selectFrom('locus').selectAll().execute();
  const thumbnails = await db
    .selectFrom('alert_thumbnail')
    .select(['filename', 'alert_id', 'locus_id', 'thumbnail_type'])
    .orderBy('filename')
    .execute();
  return {
    alerts: alerts.map(({ locus_id, properties, ...alert }) => ({
      ...alert,
      locus: name(locus_id),
      properties: Object.fromEntries(Object.entries(properties).filter(([key]) => !RECEIPT_TIMES.has(key))),
    })),
    loci: loci
      .map(({ locus_id, ra, dec, created_at: _c, updated_at: _u, ...locus }) => ({
        ...locus,
        locus: name(locus_id),
        // Summed in another order when members interleave: equal to far below the association radius.
        ra: ra.toFixed(9),
        dec: dec.toFixed(9),
      }))
      .sort((a, b) => a.locus.localeCompare(b.locus)),
    thumbnails: thumbnails.map(({ locus_id, ...t }) => ({ ...t, locus: name(locus_id) })),
  };
}

/** The group has read every partition to its end. */
function expectFullyCommitted(stream: RecordedStream): void {
  for (const tp of stream.partitions())
    expect(stream.committedOffset(tp), `${tp.topic}[${tp.partition}]`).toBe(BigInt(stream.messages(tp).length));
}

/** Repositories whose Nth alert write is done in its transaction and then throws: a crash before the commit. */
class CrashingRepositories extends Repositories {
  private writes = 0;
  constructor(
    database: TestDatabase,
    private readonly crashOnWrite: number,
  ) {
    super(database.db, database.repos.kind);
  }

  override transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return super.transaction((tx) => {
      const insertMany = tx.alerts.insertMany.bind(tx.alerts);
      tx.alerts.insertMany = async (rows) => {
        const stored = await insertMany(rows);
        if (++this.writes === this.crashOnWrite) throw new Error('injected crash before the commit');
        return stored;
      };
      return work(tx);
    });
  }
}

describe('alert batches from a consumer group', () => {
  it('commits each batch once, one past its last message, and reads every partition to its end', async () => {
    const stream = recordAlertStream();
    expect(stream.partitions().map((tp) => `${tp.topic}[${tp.partition}]`)).toEqual([
      'lsst-alerts[0]',
      'lsst-alerts[1]',
      'lsst-alerts[2]',
      'ztf[0]',
      'ztf[1]',
      'ztf[2]',
    ]);
    expect(cleanStream.commits).toHaveLength(cleanBatches);
    expect(cleanHeartbeats).toBe(cleanBatches);
    expectFullyCommitted(cleanStream);
    const stats = [...cleanStats.values()];
    const sum = (f: (s: IngestStats) => number) => stats.reduce((n, s) => n + f(s), 0);
    // Every decodable message is read; the one that is no alert is skipped and its offset passed.
    expect(sum((s) => s.packetsRead)).toBe(stream.messageCount - 1);
    expect(sum((s) => s.undecodable.length)).toBe(1);
    // The alerts sent twice are stored once, and each stored packet has a locus of its own (the
    // packets are of 29 different objects).
    expect(sum((s) => s.duplicates)).toBe(7);
    const rejected = sum((s) => Object.values(s.rejected).reduce((a, b) => a + b, 0));
    expect(sum((s) => s.packetsStored)).toBe(stream.messageCount - 1 - 7 - rejected);
    const { alerts, loci } = await contents(clean);
    expect(new Set(alerts.map((a) => a.survey))).toEqual(new Set(['ztf', 'lsst']));
    expect(loci).toHaveLength(sum((s) => s.packetsStored));
  });

  it('after a crash in the middle of a batch, resumes from the committed offsets and ends as a clean run', async () => {
    const database = await createTestDatabase();
    try {
      const stream = recordAlertStream();
      const [all] = stream.assign(1);
      const crashing = new CrashingRepositories(database, CRASH_ON_WRITE);
      const countAlerts = async () =>
        (
          await database.db
            .selectFrom('alert')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n;
      let failed: KafkaBatch | undefined;
      let alertsBefore = '';
      const port = stream.port(all);
      await expect(
        stream.consume(all, MAX_MESSAGES, async (batch) => {
          [failed, alertsBefore] = [batch, await countAlerts()];
          return handleAlertBatch(crashing, batch, port, options());
        }),
      ).rejects.toThrow('injected crash before the commit');
      // The batch's first transaction was committed, its second was not, nor was the batch's offset.
      expect(failed!.messages).toHaveLength(MAX_MESSAGES);
      expect(Number(await countAlerts())).toBeGreaterThan(Number(alertsBefore));
      expect(stream.committedOffset(failed!)).toBe(BigInt(failed!.messages[0].offset));
      const committedBefore = stream.commits.length;
      expect(committedBefore).toBeGreaterThan(0);

      // A new member (a restarted server) resumes where the group's offsets stand.
      const replayed = new Map<string, IngestStats>();
      const resumedPort = stream.port(all);
      await stream.consume(all, MAX_MESSAGES, async (batch) => {
        replayed.set(batchKey(batch), await handleAlertBatch(database.repos, batch, resumedPort, options()));
      });
      // Nothing already committed is delivered again; the failed batch is, whole.
      expect(replayed.size + committedBefore).toBe(cleanBatches);
      const again = replayed.get(batchKey(failed!))!;
      expect(again.duplicates).toBeGreaterThan(cleanStats.get(batchKey(failed!))!.duplicates);
      expectFullyCommitted(stream);
      const [got, want] = [await contents(database), await contents(clean)];
      expect(got).toEqual(want);
    } finally {
      await database.close();
    }
  });

  it('two members sharing the partitions, at the same time, store what one member stores', async () => {
    const database = await createTestDatabase();
    // On a PostgreSQL server the second member has its own pool, as a second server would.
    let second: OpenedDatabase | undefined;
    try {
      if (database.url) second = await openDatabase({ databaseUrl: database.url, poolSize: 4 });
      const members = [database.repos, second ? new Repositories(second.db, 'postgres') : database.repos];
      const stream = recordAlertStream();
      const shares = stream.assign(2);
      expect(shares.map((share) => share.map((tp) => `${tp.topic}[${tp.partition}]`))).toEqual([
        ['lsst-alerts[0]', 'lsst-alerts[2]', 'ztf[1]'],
        ['lsst-alerts[1]', 'ztf[0]', 'ztf[2]'],
      ]);
      const batches = await Promise.all(
        shares.map((share, i) => {
          const port = stream.port(share);
          return stream.consume(share, MAX_MESSAGES, (batch) => handleAlertBatch(members[i], batch, port, options()));
        }),
      );
      expect(batches[0] + batches[1]).toBe(cleanBatches);
      expectFullyCommitted(stream);
      expect(await contents(database)).toEqual(await contents(clean));
    } finally {
      await second?.close();
      await database.close();
    }
  });
});

describe('the kafkajs port', () => {
  it('commits the next offset and resolves the last handled one, in that order', async () => {
    const calls: string[] = [];
    const port = kafkajsPort(
      {
        commitOffsets: async (offsets) => {
          calls.push(`commit ${offsets.map((o) => `${o.topic}[${o.partition}]=${o.offset}`).join(' ')}`);
        },
      },
      { resolveOffset: (offset) => calls.push(`resolve ${offset}`), heartbeat: async () => {} },
    );
    await port.commitOffsets([{ topic: 'ztf', partition: 2, offset: '9007199254740993' }]);
    expect(calls).toEqual(['commit ztf[2]=9007199254740993', 'resolve 9007199254740992']);
  });

  it('resolves nothing when the commit fails, so kafkajs fetches the batch again', async () => {
    const resolved: string[] = [];
    const port = kafkajsPort(
      {
        commitOffsets: async () => {
          throw new Error('REBALANCE_IN_PROGRESS');
        },
      },
      { resolveOffset: (offset) => resolved.push(offset), heartbeat: async () => {} },
    );
    await expect(port.commitOffsets([{ topic: 'ztf', partition: 0, offset: '5' }])).rejects.toThrow('REBALANCE_IN_PROGRESS');
    expect(resolved).toEqual([]);
  });
});
