import { setTimeout as sleep } from 'node:timers/promises';

import { postgresServerFor, SERVER_URL } from '@antares/pipeline/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestServer, type TestServer } from './testing/test-server.ts';

// Issue #49 points 2 and 6: a database connection the server loses (a restart, a failover, an
// administrator) is a 503 JSON:API answer, never an exit or a 500, and the next request works; a request's
// statement that runs past ANTARES_STATEMENT_TIMEOUT_MS is a 503 too, while the jobs' and ingestion's
// statements run on (ADR 0059). Ending connections needs a PostgreSQL server whatever the pass: PGlite is
// in the process and has no connection to lose (nor a statement timeout), so these skip without one.
const reachable = await postgresServerFor('the lost-connection and statement-timeout tests');

/** Requests that each read the database (public: no session needed). */
const PATHS = [
  '/v1/loci?page[limit]=5',
  '/v1/tags',
  '/v1/catalog_samples',
  '/v1/grav_wave_events',
  '/v1/streams',
  '/v1/filters',
  '/v1/announcements',
  '/v1/loci_properties',
];
const TIMEOUT_MS = 1500;

let server: TestServer;
/** The test's own connections: one ends every other one; one holds a table lock. */
let killer: pg.Client;
let locker: pg.Client;
let lockerPid: number;

/** Ends every connection to the test database but the killer's and the locker's; returns how many. */
async function terminateBackends(): Promise<number> {
  const { rows } = await killer.query<{ n: number }>(
    `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> $1`,
    [lockerPid],
  );
  return rows[0].n;
}

/** Waits (bounded) until some statement of the test database waits for a lock: the request is under way. */
async function untilWaitingOnLock(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const { rows } = await killer.query(
      `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1`,
      [lockerPid],
    );
    if (rows.length > 0) return;
    await sleep(25);
  }
  throw new Error('no statement came to wait for the lock');
}

function expectJsonApi503(answer: { status: number; body: any; headers: Headers }, detail: RegExp): void {
  expect(answer.status).toBe(503);
  expect(answer.headers.get('content-type')).toMatch(/json/);
  expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(answer.body.errors).toHaveLength(1);
  expect(answer.body.errors[0]).toMatchObject({ status: '503', title: 'Service Unavailable' });
  expect(answer.body.errors[0].detail).toMatch(detail);
}

describe.skipIf(!reachable)('a lost database connection and a statement timeout', () => {
  beforeAll(async () => {
    server = await startTestServer({
      ingest: ['ztf-avro-alert/samples'],
      serverUrl: SERVER_URL,
      config: { statementTimeoutMs: TIMEOUT_MS },
    });
    killer = new pg.Client({ connectionString: server.databaseUrl });
    locker = new pg.Client({ connectionString: server.databaseUrl });
    await killer.connect();
    await locker.connect();
    lockerPid = (await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  }, 120_000);
  afterAll(async () => {
    await locker?.end().catch(() => {});
    await killer?.end().catch(() => {});
    await server?.close();
  });

  it('answers 503 JSON:API for a request whose connection is ended mid-statement, and the next request works', async () => {
    expect((await server.getJson('/v1/loci?page[limit]=5')).status).toBe(200);
    // The request's statement waits on the lock, so its connection is surely in use when it is ended.
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE locus IN ACCESS EXCLUSIVE MODE');
    const answer = server.getJson('/v1/loci?page[limit]=5');
    await untilWaitingOnLock();
    expect(await terminateBackends()).toBeGreaterThan(0);
    await locker.query('COMMIT');
    expectJsonApi503(await answer, /database cannot be reached/);
    const next = await server.getJson('/v1/loci?page[limit]=5');
    expect(next.status).toBe(200);
    expect(next.body.data.length).toBeGreaterThan(0);
  }, 60_000);

  it('answers only 200 or 503 JSON:API while connections are ended during many requests, then 200 again', async () => {
    const statuses = new Map<number, number>();
    let ended = 0;
    for (let round = 0; round < 12; round++) {
      const answers = Promise.all(Array.from({ length: 12 }, (_, i) => server.getJson(PATHS[(round + i) % PATHS.length])));
      // Some connections are busy, some idle, some between a transaction's statements at this point.
      await sleep(round % 4);
      ended += await terminateBackends();
      for (const answer of await answers) {
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 503) expectJsonApi503(answer, /database cannot be reached|took too long/);
        else expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      }
    }
    expect(ended).toBeGreaterThan(0);
    expect([...statuses.keys()].every((s) => s === 200 || s === 503)).toBe(true);
    for (const path of PATHS) expect((await server.getJson(path)).status, path).toBe(200);
  }, 120_000);

  it("stops a request's statement at the timeout with a 503 asking to narrow it, but not a job's statement", async () => {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE locus IN ACCESS EXCLUSIVE MODE');
    try {
      // server.repos is what ingestion and the jobs use: no statement timeout.
      const job = server.repos.db
        .selectFrom('locus')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      job.catch(() => {});
      const answer = await server.getJson('/v1/loci?page[limit]=5');
      expectJsonApi503(answer, /took too long and was stopped: narrow it/);
      await locker.query('COMMIT');
      expect(Number((await job).n)).toBeGreaterThan(0);
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
    }
    expect((await server.getJson('/v1/loci?page[limit]=5')).status).toBe(200);
  }, 60_000);
});
