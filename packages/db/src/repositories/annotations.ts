import { type Kysely, type Selectable, sql } from 'kysely';

import type { Database, LocusAnnotationTable } from '../schema.ts';

export type AnnotationRow = Selectable<LocusAnnotationTable>;

export class AnnotationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findById(annotationId: number): Promise<AnnotationRow | undefined> {
    return this.db.selectFrom('locus_annotation').selectAll().where('annotation_id', '=', annotationId).executeTakeFirst();
  }

  async listByOwner(ownerId: number, limit: number, offset: number): Promise<{ rows: AnnotationRow[]; count: number }> {
    const rows = await this.db
      .selectFrom('locus_annotation')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('annotation_id')
      .limit(limit)
      .offset(offset)
      .execute();
    const count = await this.db
      .selectFrom('locus_annotation')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('owner_id', '=', ownerId)
      .executeTakeFirstOrThrow();
    return { rows, count: Number(count.n) };
  }

  /** Creates the (owner, locus) annotation, or updates the given fields of the one that exists. */
  async upsert(
    ownerId: number,
    locusId: string,
    changes: { comment?: string; favorited?: boolean },
  ): Promise<{ row: AnnotationRow; created: boolean }> {
    const result = await sql<AnnotationRow & { created: boolean }>`
      INSERT INTO locus_annotation (owner_id, locus_id, comment, favorited)
      VALUES (${ownerId}, ${locusId}, ${changes.comment ?? ''}, ${changes.favorited ?? false})
      ON CONFLICT (owner_id, locus_id) DO UPDATE SET
        comment = CASE WHEN ${changes.comment !== undefined} THEN excluded.comment ELSE locus_annotation.comment END,
        favorited = CASE WHEN ${changes.favorited !== undefined} THEN excluded.favorited ELSE locus_annotation.favorited END,
        updated_at = now()
      RETURNING *, (xmax = 0) AS created`.execute(this.db);
    const { created, ...row } = result.rows[0];
    return { row, created };
  }

  async update(annotationId: number, changes: { comment?: string; favorited?: boolean }): Promise<AnnotationRow | undefined> {
    return this.db
      .updateTable('locus_annotation')
      .set({ ...changes, updated_at: new Date() })
      .where('annotation_id', '=', annotationId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Sets `favorited` on the owner's annotations of these loci, creating annotations where needed. */
  async setFavorites(ownerId: number, locusIds: string[], favorited: boolean): Promise<void> {
    if (locusIds.length === 0) return;
    await sql`INSERT INTO locus_annotation (owner_id, locus_id, favorited)
      SELECT ${ownerId}, id, ${favorited} FROM unnest(${locusIds}::text[]) AS id
      ON CONFLICT (owner_id, locus_id) DO UPDATE SET favorited = excluded.favorited, updated_at = now()`.execute(this.db);
  }
}
