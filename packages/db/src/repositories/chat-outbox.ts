import { type Kysely, type Selectable, sql } from 'kysely';

import type { ChatOutboxTable, Database } from '../schema.ts';

export type ChatOutboxRow = Pick<Selectable<ChatOutboxTable>, 'message_id' | 'channel' | 'text' | 'attempts'>;

/** Chat notifications waiting for delivery (see migration 0007). */
export class ChatOutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Queues messages; one with a `dedup_key` already queued (sent or not) is not queued again. */
  async enqueue(messages: Array<{ channel: string; text: string; dedup_key: string | null }>): Promise<number> {
    if (messages.length === 0) return 0;
    const result = await sql`INSERT INTO chat_outbox (channel, text, dedup_key)
      SELECT * FROM unnest(${messages.map((m) => m.channel)}::text[], ${messages.map((m) => m.text)}::text[], ${messages.map((m) => m.dedup_key)}::text[])
      ON CONFLICT (dedup_key) DO NOTHING`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /** Due messages, oldest first. */
  async due(limit: number): Promise<ChatOutboxRow[]> {
    return this.db
      .selectFrom('chat_outbox')
      .select(['message_id', 'channel', 'text', 'attempts'])
      .where('sent_at', 'is', null)
      .where('next_attempt_at', '<=', sql<Date>`now()`)
      .orderBy('message_id')
      .limit(limit)
      .execute();
  }

  async markSent(messageId: number): Promise<void> {
    await this.db
      .updateTable('chat_outbox')
      .set({ sent_at: sql`now()`, last_error: null })
      .where('message_id', '=', messageId)
      .execute();
  }

  async markFailed(messageId: number, error: string, retryInSeconds: number): Promise<void> {
    await this.db
      .updateTable('chat_outbox')
      .set({
        attempts: sql`attempts + 1`,
        last_error: error.slice(0, 2000),
        next_attempt_at: sql`now() + make_interval(secs => ${retryInSeconds})`,
      })
      .where('message_id', '=', messageId)
      .execute();
  }

  async pendingCount(): Promise<number> {
    const row = await this.db
      .selectFrom('chat_outbox')
      .where('sent_at', 'is', null)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
