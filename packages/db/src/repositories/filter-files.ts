import { type Kysely, type Selectable, sql } from 'kysely';

import type { FilterFileStore } from '../filter-file-store.ts';
import type { Database, FilterFileTable } from '../schema.ts';

/** A filter's file under one name (now, or as a version was submitted with it). */
export type FilterFileRow = Omit<Selectable<FilterFileTable>, 'filter_id'>;

/** Versions whose files still follow the filter's: not yet reviewed (ADR 0053). */
const FOLLOWING = 'PENDING_REVIEW';

/**
 * Which data file a filter has under each name (`filter_file`), and which one each version was submitted
 * and reviewed with (`filter_version_file`, ADR 0053); the bytes are in the FilterFileStore, by digest.
 * A version takes the filter's files it lists in REQUIRES_FILES when it is submitted, and follows the
 * filter's uploads and deletions while it waits for review; from its review on it keeps them, so what an
 * admin reviewed (and what an enabled version runs) never changes under it.
 */
export class FilterFileRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** Where the bytes are; undefined: no folder configured, and only filters without files can load. */
    readonly store?: FilterFileStore,
  ) {}

  list(filterId: number): Promise<FilterFileRow[]> {
    return this.db
      .selectFrom('filter_file')
      .select(['name', 'sha256', 'size', 'uploaded_at'])
      .where('filter_id', '=', filterId)
      .orderBy('name')
      .execute();
  }

  find(filterId: number, name: string): Promise<FilterFileRow | undefined> {
    return this.db
      .selectFrom('filter_file')
      .select(['name', 'sha256', 'size', 'uploaded_at'])
      .where('filter_id', '=', filterId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  /** The bytes of all files of the filters of one user (their current files; what the per-user limit counts). */
  async userTotal(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('filter_file')
      .innerJoin('filter', 'filter.filter_id', 'filter_file.filter_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('filter_file.size'), sql<number>`0`).as('n'))
      .where('filter.user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Every REQUIRES_FILES name the filter's versions declare (what may be uploaded). */
  async requiredNames(filterId: number): Promise<string[]> {
    const rows = await sql<{ name: string }>`SELECT DISTINCT jsonb_array_elements_text(declared_outputs->'requires_files') AS name
      FROM filter_version WHERE filter_id = ${filterId} AND jsonb_typeof(declared_outputs->'requires_files') = 'array'`.execute(this.db);
    return rows.rows.map((r) => r.name).sort();
  }

  /**
   * The filter's file `name` is now these bytes; versions waiting for review that list the name take them
   * too. Returns the row and the digest it replaced (if any).
   */
  async put(filterId: number, file: { name: string; sha256: string; size: number }): Promise<{ row: FilterFileRow; replaced?: string }> {
    return this.db.transaction().execute(async (trx) => {
      const old = await trx
        .selectFrom('filter_file')
        .select('sha256')
        .where('filter_id', '=', filterId)
        .where('name', '=', file.name)
        .forUpdate()
        .executeTakeFirst();
      const now = new Date();
      const row = await trx
        .insertInto('filter_file')
        .values({ filter_id: filterId, ...file, uploaded_at: now })
        .onConflict((oc) => oc.columns(['filter_id', 'name']).doUpdateSet({ sha256: file.sha256, size: file.size, uploaded_at: now }))
        .returning(['name', 'sha256', 'size', 'uploaded_at'])
        .executeTakeFirstOrThrow();
      await sql`INSERT INTO filter_version_file (filter_version_id, name, sha256, size, uploaded_at)
        SELECT filter_version_id, ${file.name}, ${file.sha256}, ${file.size}, ${now} FROM filter_version
        WHERE filter_id = ${filterId} AND status = ${FOLLOWING}
          AND declared_outputs->'requires_files' @> jsonb_build_array(${file.name}::text)
        ON CONFLICT (filter_version_id, name) DO UPDATE SET sha256 = EXCLUDED.sha256, size = EXCLUDED.size,
          uploaded_at = EXCLUDED.uploaded_at`.execute(trx);
      return { row, replaced: old && old.sha256 !== file.sha256 ? old.sha256 : undefined };
    });
  }

  /** Removes the filter's file `name` (and from the versions waiting for review); its digest, if there was one. */
  async remove(filterId: number, name: string): Promise<string | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const gone = await trx
        .deleteFrom('filter_file')
        .where('filter_id', '=', filterId)
        .where('name', '=', name)
        .returning('sha256')
        .executeTakeFirst();
      await sql`DELETE FROM filter_version_file WHERE name = ${name} AND filter_version_id IN
        (SELECT filter_version_id FROM filter_version WHERE filter_id = ${filterId} AND status = ${FOLLOWING})`.execute(trx);
      return gone?.sha256;
    });
  }

  /** A version takes the filter's current files among the names it requires (`replace`: instead of those it had). */
  async pinCurrent(filterId: number, versionId: number, names: readonly string[], replace = false): Promise<void> {
    if (replace) await this.db.deleteFrom('filter_version_file').where('filter_version_id', '=', versionId).execute();
    if (names.length === 0) return;
    await sql`INSERT INTO filter_version_file (filter_version_id, name, sha256, size, uploaded_at)
      SELECT ${versionId}, name, sha256, size, uploaded_at FROM filter_file
      WHERE filter_id = ${filterId} AND name = ANY(${[...names]}::text[])
      ON CONFLICT DO NOTHING`.execute(this.db);
  }

  /** The files a version was submitted (and reviewed) with. */
  versionFiles(versionId: number): Promise<FilterFileRow[]> {
    return this.db
      .selectFrom('filter_version_file')
      .select(['name', 'sha256', 'size', 'uploaded_at'])
      .where('filter_version_id', '=', versionId)
      .orderBy('name')
      .execute();
  }

  /** The files of several versions at once, by version id (the admin's list of versions). */
  async filesOfVersions(versionIds: readonly number[]): Promise<Map<number, FilterFileRow[]>> {
    const byVersion = new Map<number, FilterFileRow[]>(versionIds.map((id) => [id, []]));
    if (versionIds.length === 0) return byVersion;
    const rows = await this.db
      .selectFrom('filter_version_file')
      .select(['filter_version_id', 'name', 'sha256', 'size', 'uploaded_at'])
      .where('filter_version_id', 'in', [...versionIds])
      .orderBy('name')
      .execute();
    for (const { filter_version_id, ...row } of rows) byVersion.get(Number(filter_version_id))?.push(row);
    return byVersion;
  }

  /** Whether any filter or version still names these bytes (else they may be removed from the store). */
  async referenced(sha256: string): Promise<boolean> {
    const row = await sql<{ used: boolean }>`SELECT EXISTS (SELECT 1 FROM filter_file WHERE sha256 = ${sha256})
      OR EXISTS (SELECT 1 FROM filter_version_file WHERE sha256 = ${sha256}) AS used`.execute(this.db);
    return Boolean(row.rows[0]?.used);
  }

  /** Reads these files' bytes from the store, by name. */
  async read(rows: readonly FilterFileRow[]): Promise<Record<string, Uint8Array>> {
    if (rows.length === 0) return {};
    const store = this.store;
    if (!store) throw new Error('filter data files are not available: no filter-files folder is configured');
    return Object.fromEntries(await Promise.all(rows.map(async (row) => [row.name, await store.read(row.sha256)] as const)));
  }
}
