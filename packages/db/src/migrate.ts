import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { type Kysely, sql } from 'kysely';

import type { Database } from './schema.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Plain-SQL, forward-only migrations: files NNNN_name.sql, applied once each, in name order. `until`
 * (a version, inclusive) stops early: migration tests build a database as an older release left it.
 */
export async function migrate(db: Kysely<Database>, options: { until?: string } = {}): Promise<string[]> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(db);
  const applied = new Set((await db.selectFrom('schema_migrations').select('version').execute()).map((row) => row.version));
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith('.sql'))
    .sort();
  const newlyApplied: string[] = [];
  for (const file of files) {
    const version = file.replace(/\.sql$/, '');
    if (options.until !== undefined && version > options.until) break;
    if (applied.has(version)) continue;
    const text = readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
    await db.transaction().execute(async (trx) => {
      await sql.raw(text).execute(trx);
      await trx.insertInto('schema_migrations').values({ version }).execute();
    });
    newlyApplied.push(version);
  }
  return newlyApplied;
}
