import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { createTestDatabase, type TestDatabase } from '@antares/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { postgresServerFor, SERVER_URL } from '../testing/postgres-server.ts';
import { expectSameOutcome } from '../testing/same-outcome.ts';
import { expandInputs, ingestFiles } from './ingest-files.ts';

// Issue #49 point 2: ingestion whose database connections are ended (a PostgreSQL restart, a failover)
// retries the batch, and stores exactly what a clean run stores: no alert lost, none twice (ADR 0059).
// Ending connections needs a PostgreSQL server whatever the pass (PGlite has no connection to lose).
const reachable = await postgresServerFor('the lost-connection ingest test');

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');
/** Real ZTF and Rubin packets, in small batches: many transactions for the connections to be ended in. */
const INPUTS = [
  'ztf-avro-alert/samples',
  'alerce/ztf_samples_snappy',
  'fink-broker/ztf_v3.3_20200101',
  'fink-broker/rubin_v9.0_fink_subset',
];
const BATCH = 10;
/** Connections ended at most, each once some statement runs (then ingestion is left to go on a while). */
const TERMINATIONS = 4;

let clean: TestDatabase;
let lossy: TestDatabase;
let killer: pg.Client;

beforeAll(async () => {
  if (!reachable) return;
  clean = await createTestDatabase(SERVER_URL);
  lossy = await createTestDatabase(SERVER_URL);
  killer = new pg.Client({ connectionString: lossy.url });
  await killer.connect();
}, 120_000);
afterAll(async () => {
  await killer?.end().catch(() => {});
  await clean?.close();
  await lossy?.close();
});

/** Ends the ingesting connections each time one is busy, up to `times`; returns how many rounds ended some. */
async function terminateWhileBusy(until: Promise<unknown>, times: number): Promise<number> {
  let done = false;
  until.then(
    () => (done = true),
    () => (done = true),
  );
  let rounds = 0;
  while (!done && rounds < times) {
    const { rows } = await killer.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')`,
    );
    if (rows[0].n > 0) {
      rounds++;
      await sleep(1200); // ingestion retries (0.5 s later), and gets some batches further
    } else {
      await sleep(5);
    }
  }
  return rounds;
}

describe.skipIf(!reachable)('ingestion whose database connections are ended', () => {
  it('retries its batches and stores what a clean run stores, no alert lost or stored twice', async () => {
    const files = expandInputs(INPUTS.map((p) => path.join(DATA, p)));
    const one = await ingestFiles(clean.repos, files, { batchSize: BATCH });
    expect(one.packetsStored).toBeGreaterThan(50);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const ingesting = ingestFiles(lossy.repos, files, { batchSize: BATCH });
      const rounds = await terminateWhileBusy(ingesting, TERMINATIONS);
      const stats = await ingesting;
      expect(rounds).toBeGreaterThan(0);
      // A batch really lost its connection and was run again.
      const retries = warn.mock.calls.filter(([line]) => String(line).includes('lost its connection'));
      expect(retries.length).toBeGreaterThan(0);
      // Every packet counted once: a retried batch starts its counts again.
      expect(stats.packetsRead).toBe(one.packetsRead);
      expect(stats.packetsStored + stats.duplicates).toBe(one.packetsStored + one.duplicates);
    } finally {
      warn.mockRestore();
    }
    await expectSameOutcome(clean, lossy);
    const ids = async (database: TestDatabase) =>
      (await database.db.selectFrom('alert').select('alert_id').orderBy('alert_id').execute()).map((a) => a.alert_id);
    expect(await ids(lossy)).toEqual(await ids(clean));
    const cutouts = async (database: TestDatabase) =>
      Number(
        (
          await database.db
            .selectFrom('alert_thumbnail')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await cutouts(lossy)).toBe(await cutouts(clean));
  }, 300_000);
});
