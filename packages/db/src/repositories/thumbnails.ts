import { type Kysely, sql } from 'kysely';

import { asBuffer, binaryCopyChunks, copyUnlessStored } from '../copy-in.ts';
import { CutoutPacks, CutoutPackUnavailable } from '../cutout-packs.ts';
import type { Database } from '../schema.ts';

/** From this many cutouts on, a transaction on a PostgreSQL server writes them with COPY. */
const COPY_MIN_ROWS = 30;

export type ThumbnailType = 'science' | 'template' | 'difference';

export interface ThumbnailInfo {
  filename: string;
  alert_id: string;
  thumbnail_type: ThumbnailType;
}

export interface NewThumbnail extends ThumbnailInfo {
  locus_id: string;
  /** The cutout as received (gzipped FITS for ZTF). */
  cutout: Uint8Array;
}

export class ThumbnailRepository {
  /**
   * `onServer`: a PostgreSQL server (COPY, bytea parameters), not embedded PGlite. `packs`: new cutouts
   * are written to pack files there and the rows keep where (ADR 0051); without, into the rows.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly onServer = false,
    private readonly packs?: CutoutPacks,
  ) {}

  /**
   * Stores cutouts; one already stored keeps its bytes but takes the locus given now. On a PostgreSQL
   * server ingestion writes cutouts in a transaction of their own, beside the batch's, so after a crash the
   * replayed alert may land on a new locus while its cutouts still name the rolled-back one.
   */
  async insertMany(given: NewThumbnail[]): Promise<void> {
    // One row per file: ON CONFLICT DO UPDATE may not touch a row twice in one statement.
    const thumbnails = [...new Map(given.map((t) => [t.filename, t])).values()];
    if (thumbnails.length === 0) return;
    if (this.packs) return this.insertPacked(thumbnails, this.packs);
    if (this.onServer && this.db.isTransaction && thumbnails.length >= COPY_MIN_ROWS && (await this.copyNew(thumbnails))) return;
    if (this.onServer) {
      // PostgreSQL: bytea parameters, measured twice as fast as one JSON document of base64 text.
      const rows = thumbnails.map(
        (t) => sql`(${t.filename}, ${t.alert_id}, ${t.locus_id}, ${t.thumbnail_type}, ${asBuffer(t.cutout)}::bytea)`,
      );
      await sql`INSERT INTO alert_thumbnail (filename, alert_id, locus_id, thumbnail_type, cutout)
        VALUES ${sql.join(rows)} ON CONFLICT (filename) DO UPDATE SET locus_id = excluded.locus_id
        WHERE alert_thumbnail.locus_id IS DISTINCT FROM excluded.locus_id`.execute(this.db);
      return;
    }
    // PGlite passes binary parameters slowly (measured ten times slower): one JSON document instead.
    const rows = thumbnails.map((t) => ({ ...t, cutout: asBuffer(t.cutout).toString('base64') }));
    await sql`INSERT INTO alert_thumbnail (filename, alert_id, locus_id, thumbnail_type, cutout)
      SELECT filename, alert_id, locus_id, thumbnail_type, decode(cutout, 'base64')
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS x(filename text, alert_id text, locus_id text, thumbnail_type text, cutout text)
      ON CONFLICT (filename) DO UPDATE SET locus_id = excluded.locus_id
        WHERE alert_thumbnail.locus_id IS DISTINCT FROM excluded.locus_id`.execute(this.db);
  }

  /**
   * The cutouts into a new pack, flushed to disk, then rows pointing into it. A cutout stored already
   * keeps its row (its copy in the new pack is never read): ingestion leaves out the cutouts of alerts
   * it has stored with theirs, so this happens only when a batch failed after its pack was written.
   */
  private async insertPacked(thumbnails: NewThumbnail[], packs: CutoutPacks): Promise<void> {
    const placed = await packs.write(thumbnails.map((t) => t.cutout));
    const rows = thumbnails.map((t, i) => ({
      filename: t.filename,
      alert_id: t.alert_id,
      locus_id: t.locus_id,
      thumbnail_type: t.thumbnail_type,
      pack: placed[i]!.pack,
      pack_offset: placed[i]!.offset,
      pack_length: placed[i]!.length,
    }));
    await sql`INSERT INTO alert_thumbnail (filename, alert_id, locus_id, thumbnail_type, pack, pack_offset, pack_length)
      SELECT filename, alert_id, locus_id, thumbnail_type, pack, pack_offset, pack_length
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS x(filename text, alert_id text, locus_id text, thumbnail_type text, pack text, pack_offset bigint, pack_length integer)
      ON CONFLICT (filename) DO UPDATE SET locus_id = excluded.locus_id
        WHERE alert_thumbnail.locus_id IS DISTINCT FROM excluded.locus_id`.execute(this.db);
  }

  /**
   * In a transaction on a PostgreSQL server: the cutouts go in with a binary COPY, their bytes passed on
   * as they are. Every Rubin packet brings three cutouts of about 9 KB, and as bytea parameters the
   * driver copied them four times over while growing its buffers. COPY has no ON CONFLICT: when one is
   * stored already (the same files ingested again), nothing is copied (savepoint) and false tells
   * insertMany to INSERT them instead.
   */
  private async copyNew(thumbnails: NewThumbnail[]): Promise<boolean> {
    const rows = thumbnails.map((t) => [t.filename, t.alert_id, t.locus_id, t.thumbnail_type, t.cutout]);
    const copied = await copyUnlessStored(
      this.db,
      'COPY alert_thumbnail (filename, alert_id, locus_id, thumbnail_type, cutout) FROM STDIN WITH (FORMAT binary)',
      binaryCopyChunks(rows),
    );
    return copied !== undefined;
  }

  /** Thumbnail descriptions (no image bytes) of many alerts: listing pages show three per locus. */
  async listForAlerts(alertIds: string[]): Promise<ThumbnailInfo[]> {
    if (alertIds.length === 0) return [];
    return this.db
      .selectFrom('alert_thumbnail')
      .select(['filename', 'alert_id', 'thumbnail_type'])
      .where('alert_id', 'in', alertIds)
      .orderBy('filename')
      .execute();
  }

  /** Alerts of these loci that have thumbnails: a locus lists the newest of them. */
  async alertIdsWithThumbnails(locusIds: string[]): Promise<string[]> {
    if (locusIds.length === 0) return [];
    const rows = await this.db.selectFrom('alert_thumbnail').select('alert_id').distinct().where('locus_id', 'in', locusIds).execute();
    return rows.map((row) => row.alert_id);
  }

  /**
   * The stored image: its PNG once rendered, and the cutout it is rendered from (read from its pack only
   * when there is no PNG yet). CutoutPackUnavailable when that pack cannot be read.
   */
  async findImage(filename: string): Promise<{ png: Uint8Array } | { png: null; cutout: Uint8Array } | undefined> {
    const row = await this.db
      .selectFrom('alert_thumbnail')
      .select(['png', 'cutout', 'pack', 'pack_offset', 'pack_length'])
      .where('filename', '=', filename)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.png) return { png: row.png };
    return { png: null, cutout: await this.bytesOf(row) };
  }

  /** An alert's cutout of one type, read from its pack if it lies in one; CutoutPackUnavailable when that pack cannot be read. */
  async findCutout(alertId: string, type: ThumbnailType): Promise<Uint8Array | undefined> {
    const row = await this.db
      .selectFrom('alert_thumbnail')
      .select(['cutout', 'pack', 'pack_offset', 'pack_length'])
      .where('alert_id', '=', alertId)
      .where('thumbnail_type', '=', type)
      .executeTakeFirst();
    return row && this.bytesOf(row);
  }

  private async bytesOf(row: {
    cutout: Uint8Array | null;
    pack: string | null;
    pack_offset: string | number | null;
    pack_length: number | null;
  }): Promise<Uint8Array> {
    if (row.cutout) return row.cutout;
    if (!this.packs) throw new CutoutPackUnavailable('it lies in a cutout pack and ANTARES_CUTOUT_DIR is not set on this server');
    return this.packs.read({ pack: row.pack!, offset: Number(row.pack_offset), length: row.pack_length! });
  }

  /** How many cutouts are stored in the database itself, not in packs. */
  async countInDatabase(): Promise<number> {
    const row = await sql<{ n: number }>`SELECT count(*)::int AS n FROM alert_thumbnail WHERE cutout IS NOT NULL`.execute(this.db);
    return row.rows[0]!.n;
  }

  /**
   * In a transaction: moves up to `limit` cutouts stored in the database, the first by file name after
   * `after`, into a new pack (ADR 0051). The rows are locked, the pack written and flushed to disk, then
   * the rows point into it and their bytes are gone, committing with the transaction. Returns how many
   * moved, their bytes, and the last file name moved (the next call's `after`).
   */
  async moveToPack(limit: number, after = ''): Promise<{ moved: number; bytes: number; last?: string }> {
    if (!this.packs) throw new CutoutPackUnavailable('ANTARES_CUTOUT_DIR is not set: there is no folder to move cutouts to');
    const rows = await sql<{ filename: string; cutout: Uint8Array }>`
      SELECT filename, cutout FROM alert_thumbnail
      WHERE filename > ${after} AND cutout IS NOT NULL
      ORDER BY filename LIMIT ${limit} FOR UPDATE SKIP LOCKED`.execute(this.db);
    if (rows.rows.length === 0) return { moved: 0, bytes: 0 };
    const placed = await this.packs.write(rows.rows.map((r) => r.cutout));
    const moved = rows.rows.map((r, i) => ({
      filename: r.filename,
      pack: placed[i]!.pack,
      offset: placed[i]!.offset,
      length: placed[i]!.length,
    }));
    await sql`UPDATE alert_thumbnail t SET cutout = NULL, pack = x.pack, pack_offset = x.offset, pack_length = x.length
      FROM jsonb_to_recordset(${JSON.stringify(moved)}::jsonb) AS x(filename text, pack text, "offset" bigint, length integer)
      WHERE t.filename = x.filename`.execute(this.db);
    return { moved: moved.length, bytes: placed.reduce((sum, p) => sum + p.length, 0), last: moved.at(-1)!.filename };
  }

  /** VACUUM FULL of the cutout table: gives the space of moved cutouts back to the disk (locks the table while it runs). */
  async vacuumFull(): Promise<void> {
    await sql`VACUUM FULL alert_thumbnail`.execute(this.db);
  }

  async savePng(filename: string, png: Uint8Array): Promise<void> {
    await this.db.updateTable('alert_thumbnail').set({ png }).where('filename', '=', filename).execute();
  }
}
