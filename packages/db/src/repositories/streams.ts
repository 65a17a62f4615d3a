import { type Kysely, type Selectable, sql } from 'kysely';

import type { Database, JsonObject, StreamMessageTable } from '../schema.ts';

export type StreamMessageRow = Selectable<StreamMessageTable>;

/** The output streams' durable log (see migration 0007). */
export class StreamRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async append(messages: Array<{ stream: string; locus_id: string; alert_id: string | null; locus: JsonObject }>): Promise<void> {
    if (messages.length === 0) return;
    await sql`INSERT INTO stream_message (stream, locus_id, alert_id, locus)
      SELECT stream, locus_id, alert_id, locus FROM jsonb_to_recordset(${JSON.stringify(messages)}::jsonb)
        AS m(stream text, locus_id text, alert_id text, locus jsonb)`.execute(this.db);
  }

  /** Messages of a stream after an offset, in order. */
  async read(stream: string, after: number, limit: number): Promise<StreamMessageRow[]> {
    const rows = await this.db
      .selectFrom('stream_message')
      .selectAll()
      .where('stream', '=', stream)
      .where('message_id', '>', after)
      .orderBy('message_id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, message_id: Number(r.message_id) }));
  }

  /** Every stream with its message count and newest offset. */
  async list(): Promise<Array<{ stream: string; messages: number; last_offset: number }>> {
    const rows = await sql<{ stream: string; messages: string; last_offset: string }>`
      SELECT stream, count(*) AS messages, max(message_id) AS last_offset FROM stream_message GROUP BY stream ORDER BY stream`.execute(
      this.db,
    );
    return rows.rows.map((r) => ({ stream: r.stream, messages: Number(r.messages), last_offset: Number(r.last_offset) }));
  }

  async lastOffset(stream: string): Promise<number> {
    const row = await sql<{ m: string | null }>`SELECT max(message_id) AS m FROM stream_message WHERE stream = ${stream}`.execute(this.db);
    return Number(row.rows[0].m ?? 0);
  }

  /** Messages of every stream after a global offset (the Kafka relay). */
  async readAll(after: number, limit: number): Promise<StreamMessageRow[]> {
    const rows = await this.db
      .selectFrom('stream_message')
      .selectAll()
      .where('message_id', '>', after)
      .orderBy('message_id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, message_id: Number(r.message_id) }));
  }

  async relayOffset(relay: string): Promise<number> {
    const row = await this.db.selectFrom('stream_relay').select('last_message_id').where('relay', '=', relay).executeTakeFirst();
    return Number(row?.last_message_id ?? 0);
  }

  async saveRelayOffset(relay: string, offset: number): Promise<void> {
    await this.db
      .insertInto('stream_relay')
      .values({ relay, last_message_id: offset })
      .onConflict((oc) => oc.column('relay').doUpdateSet({ last_message_id: offset }))
      .execute();
  }
}
