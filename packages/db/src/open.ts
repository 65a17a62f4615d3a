import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';

import { trackCopyClients } from './copy-in.ts';
import { PGlitePool } from './pglite-pool.ts';
import type { Database } from './schema.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface OpenedDatabase {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** The embedded database handle (PGlite only): tests dump it as a template. */
  pglite?: PGlite;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A PostgreSQL server URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Folder of the embedded database; `memory://` keeps it in memory (tests). */
  pgliteDir?: string;
  /** A PGlite data-dir dump to start from (tests clone a migrated template this way). */
  pgliteLoadDataDir?: Blob;
  poolSize?: number;
  /**
   * PostgreSQL server only: statements running longer are cancelled (57014). Given to the pool that
   * serves HTTP requests (ANTARES_STATEMENT_TIMEOUT_MS), never to ingestion's or migrations' (ADR 0059).
   */
  statementTimeoutMs?: number;
}

// int8 values we store (htm16 ids, counts) are below 2^53; 64-bit survey ids are kept as text.
const INT8_OID = 20;
pg.types.setTypeParser(INT8_OID, (value: string) => Number(value));

/** `serverUrl` with its database name replaced by `database`: a database of the same server. */
export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function openDatabase(options: OpenOptions): Promise<OpenedDatabase> {
  // The test suite's `pure` lane (vitest.config.ts) runs once, not again on the PostgreSQL server, so a
  // test file in it must meet no database: this makes one that does fail, naming the way out.
  if (process.env.ANTARES_FORBID_DATABASE)
    throw new Error('this process may open no database (ANTARES_FORBID_DATABASE): a test that needs one belongs in the db lane');
  if (options.databaseUrl) {
    // No JIT compilation: our statements are short, and on a table whose size the planner misjudges
    // it spends 20-200 ms compiling a statement that runs in a few. A URL's own `options` win.
    const jitOff = /[?&]options=/.test(options.databaseUrl) ? {} : { options: '-c jit=off' };
    const timeout = options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {};
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10, ...jitOff, ...timeout });
    // An idle connection the server closes (a restart, an administrator, a dropped test database) is
    // reported here; unhandled, it would crash the process. The pool opens a new one when next needed.
    pool.on('error', (error) => console.warn(`database: an idle connection was closed (${error.message}); the next query opens a new one`));
    // A connection closed while checked out (a query under way, or a transaction between statements)
    // emits 'error' on its client, where the pool listens only while the client is idle: unhandled, that
    // too ended the process. The statement under way is rejected with the error (its caller answers 503
    // or retries, ADR 0059), later ones with "not queryable", and the pool drops the client on release.
    pool.on('connect', (client) => client.on('error', () => {}));
    trackCopyClients(pool);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const dir = options.pgliteDir ?? 'memory://';
  if (!dir.startsWith('memory://')) mkdirSync(path.resolve(dir), { recursive: true });
  const pglite = await PGlite.create({
    dataDir: dir.startsWith('memory://') ? undefined : path.resolve(dir),
    loadDataDir: options.pgliteLoadDataDir,
    parsers: { [INT8_OID]: (value: string) => Number(value) },
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new PGlitePool(pglite) }) });
  return { db, kind: 'pglite', pglite, close: () => db.destroy() };
}
