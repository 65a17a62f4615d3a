import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createTestDatabase, type TestDatabase } from '@antares/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type AlertPacket, decodeAvroFile } from '../sources/alert-avro.ts';
import type { WatchMatcher } from '../stages/watch-match.ts';
import { emptyStats, ingestBatch } from './ingest-batch.ts';
import { expandInputs } from './ingest-files.ts';
import { KnownAlerts, knownAlertsOf } from './known-alerts.ts';

// The rows a process knows are stored (ADR 0037): looked up there before the database, and added only
// once their batch has committed.
const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');

describe('KnownAlerts', () => {
  it('keeps the rows used since its last turn, and never more than its size', () => {
    const known = new KnownAlerts(4); // turns when 2 rows were added since the last turn
    known.addCommitted(
      new Map([
        ['a', 'L1'],
        ['b', 'L1'],
      ]),
    );
    known.addCommitted(new Map([['c', 'L2']])); // a turn: a and b are the previous generation
    expect(known.get('a')).toBe('L1'); // used again: kept through the next turn
    known.addCommitted(new Map([['d', 'L3']])); // a turn: b, not used since the last, is forgotten
    expect(known.get('b')).toBeUndefined();
    expect([known.get('a'), known.get('c'), known.get('d')]).toEqual(['L1', 'L2', 'L3']);
    for (let i = 0; i < 20; i++) {
      known.addCommitted(new Map([[`x${i}`, 'L4']]));
      expect(known.size).toBeLessThanOrEqual(4);
    }
    expect(known.get('x19')).toBe('L4');
  });

  it('is one per database handle', () => {
    const one = {};
    expect(knownAlertsOf(one)).toBe(knownAlertsOf(one));
    expect(knownAlertsOf(one)).not.toBe(knownAlertsOf({}));
  });
});

describe('ingesting with the cache of stored rows', () => {
  let database: TestDatabase;
  const packets: AlertPacket[] = [];
  let storedFirst = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    for (const file of expandInputs([path.join(DATA, 'fink-broker/rubin_v9.0_fink_subset')]))
      for await (const record of decodeAvroFile(file)) if ('packet' in record) packets.push(record.packet);
  });
  afterAll(async () => database?.close());

  const alertRows = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM alert`.execute(database.db)).rows[0].n;

  it('remembers nothing of a batch that was rolled back, so ingesting it again stores every row', async () => {
    expect(packets.length).toBeGreaterThan(5);
    // A watch list whose chat message cannot be written fails the batch after its alerts were inserted.
    const failing = {
      refresh: async () => {},
      match: () => [{ watch_object_id: 1, watch_list_id: 1, ra: 0, dec: 0, radius: 1, comment: null, list_name: 'x', slack_channel: '#c' }],
      message: () => {
        throw new Error('chat message failed');
      },
    } as unknown as WatchMatcher;
    await expect(ingestBatch(database.repos, packets, emptyStats(), { watch: failing })).rejects.toThrow('chat message failed');
    expect(await alertRows()).toBe(0);
    expect(knownAlertsOf(database.repos.db).size).toBe(0);

    const stats = emptyStats();
    await ingestBatch(database.repos, packets, stats);
    expect(stats.packetsStored).toBeGreaterThan(5);
    expect(stats.alertsStored).toBeGreaterThanOrEqual(stats.packetsStored);
    expect(await alertRows()).toBe(stats.alertsStored);
    storedFirst = stats.packetsStored;
    expect(knownAlertsOf(database.repos.db).size).toBe(stats.alertsStored);
  });

  it('finds every row of a packet ingested again in the cache and stores nothing twice', async () => {
    const before = await alertRows();
    const stats = emptyStats();
    await ingestBatch(database.repos, packets, stats);
    expect(stats.alertsStored).toBe(0);
    expect(stats.duplicates).toBe(storedFirst);
    expect(await alertRows()).toBe(before);
  });
});
