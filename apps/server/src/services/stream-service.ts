import type { AlertRow, LocusRow, Repositories, StreamMessageRow } from '@antares/db';

import { badRequest, notFound } from '../errors.ts';
import { lightcurveCsv } from './lightcurve.ts';

/** Long-poll and server-sent events look for new messages this often (other processes may write them). */
export const STREAM_POLL_MS = 250;

export interface StreamMessage {
  row: StreamMessageRow;
  locus: LocusRow;
  lightcurve: string;
}

/**
 * Output streams: one per tag of an enabled public filter (the tags anyone may list). A message is the
 * locus as it was when tagged, with the lightcurve of its alerts up to the one that triggered it.
 */
export class StreamService {
  constructor(private readonly repos: Repositories) {}

  async assertReadable(stream: string): Promise<void> {
    if (!(await this.repos.tags.find(stream))) throw notFound(`No stream named "${stream}"`);
  }

  /** A page of messages after `after` (long-polling up to `waitMs` for the first), from a stream that exists. */
  async messages(
    stream: string,
    page: { after: number; limit: number; waitMs: number },
    isClosed: () => boolean,
  ): Promise<StreamMessage[]> {
    await this.assertReadable(stream);
    return this.read(stream, page.after, page.limit, page.waitMs, isClosed);
  }

  /** Where an events consumer resumes: the Last-Event-ID its client sends on reconnection, else `after`. */
  resumeOffset(lastEventId: string | undefined, after: string | undefined): number {
    const text = (lastEventId !== undefined && lastEventId !== '' ? lastEventId : after) ?? '0';
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) throw badRequest('Last-Event-ID and after must be whole numbers');
    return n;
  }

  async list(): Promise<Array<{ stream: string; description: string; messages: number; last_offset: number }>> {
    const counts = new Map((await this.repos.streams.list()).map((s) => [s.stream, s]));
    const tags = await this.repos.tags.list({ sort: 'id', limit: 10_000, offset: 0 });
    return tags.rows.map((t) => ({
      stream: t.tag_id,
      description: t.description,
      messages: counts.get(t.tag_id)?.messages ?? 0,
      last_offset: counts.get(t.tag_id)?.last_offset ?? 0,
    }));
  }

  /** Up to `limit` messages after `after`; with `waitMs`, waits that long for the first one. */
  async read(stream: string, after: number, limit: number, waitMs = 0, isClosed: () => boolean = () => false): Promise<StreamMessage[]> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const rows = await this.repos.streams.read(stream, after, limit);
      if (rows.length > 0 || Date.now() >= deadline || isClosed()) return this.messagesOf(rows);
      await new Promise((resolve) => setTimeout(resolve, Math.min(STREAM_POLL_MS, Math.max(0, deadline - Date.now()))));
    }
  }

  /** Log rows as messages: each with its locus snapshot and lightcurve. */
  async messagesOf(rows: StreamMessageRow[]): Promise<StreamMessage[]> {
    if (rows.length === 0) return [];
    const alerts = await this.repos.alerts.listByLoci([...new Set(rows.map((r) => r.locus_id))]);
    const byLocus = new Map<string, AlertRow[]>();
    for (const a of alerts) byLocus.set(a.locus_id, [...(byLocus.get(a.locus_id) ?? []), a]);
    return rows.map((row) => {
      const own = byLocus.get(row.locus_id) ?? [];
      const trigger = own.find((a) => a.alert_id === row.alert_id);
      const upTo = trigger ? own.filter((a) => a.mjd <= trigger.mjd) : own;
      const snapshot = row.locus as Record<string, unknown>;
      const locus: LocusRow = {
        locus_id: row.locus_id,
        ra: Number(snapshot.ra),
        dec: Number(snapshot.dec),
        htm16: Number(snapshot.htm16),
        properties: (snapshot.properties ?? {}) as LocusRow['properties'],
        tags: (snapshot.tags ?? []) as string[],
        catalogs: (snapshot.catalogs ?? []) as string[],
        grav_wave_events: (snapshot.grav_wave_events ?? []) as string[],
        newest_thumbnail_alert_id: null,
      };
      return { row, locus, lightcurve: lightcurveCsv(upTo) };
    });
  }
}
