import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import pg from 'pg';

import { migrate } from './migrate.ts';
import { openDatabase, type OpenedDatabase, withDatabase } from './open.ts';
import { Repositories } from './repositories/index.ts';

/**
 * A fresh, migrated database for one test file: PGlite in memory by default, or a new database on the
 * PostgreSQL server of DATABASE_URL (as CI runs the suite a second time). Both are cloned from a
 * migrated template, which is much faster than migrating each time.
 */
export interface TestDatabase extends OpenedDatabase {
  repos: Repositories;
  /** The database's own URL on the PostgreSQL server (undefined on PGlite), for connections of its own. */
  url?: string;
}

let pgliteTemplate: Promise<Blob> | undefined;

/** `serverUrl`: a test that needs the server whatever the pass names it (default: DATABASE_URL, or PGlite). */
export async function createTestDatabase(serverUrl = process.env.DATABASE_URL): Promise<TestDatabase> {
  if (serverUrl) return createServerTestDatabase(serverUrl);
  pgliteTemplate ??= (async () => {
    const template = await openDatabase({});
    await migrate(template.db);
    const dump = await dumpOf(template);
    await template.close();
    return dump;
  })();
  const opened = await openDatabase({ pgliteLoadDataDir: await pgliteTemplate });
  return { ...opened, repos: new Repositories(opened.db, opened.kind) };
}

async function dumpOf(opened: OpenedDatabase): Promise<Blob> {
  const pglite = opened.pglite;
  if (!pglite) throw new Error('not a PGlite database');
  return pglite.dumpDataDir('none');
}

function migrationsHash(): string {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
  const hash = createHash('sha256');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(path.join(dir, file)));
  return hash.digest('hex').slice(0, 12);
}

async function createServerTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const template = `antares_template_${migrationsHash()}`;
  const name = `antares_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  try {
    // Parallel test workers race to build the template: an advisory lock lets one of them do it.
    await admin.query('SELECT pg_advisory_lock(4242)');
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (exists.rowCount === 0) {
      // Built under another name and renamed once migrated: a run that stops half-way (a crash, a failed
      // migration) leaves no half-migrated template for every later run to copy.
      const building = `${template}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const templateDb = await openDatabase({ databaseUrl: withDatabase(serverUrl, building), poolSize: 1 });
      try {
        await migrate(templateDb.db);
      } finally {
        await templateDb.close();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
    }
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.query('SELECT pg_advisory_unlock(4242)').catch(() => {});
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const opened = await openDatabase({ databaseUrl: url, poolSize: 4 });
  return {
    ...opened,
    repos: new Repositories(opened.db, opened.kind),
    url,
    close: async () => {
      await opened.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
