import type { LocusRow } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { enableTagFilter } from '../../testing/tag-filter.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// Output streams over HTTP: paging by offset, long-poll, and server-sent events that resume.
let server: TestServer;
let loci: LocusRow[];

const enableTag = (tag: string, isPublic: boolean) => enableTagFilter(server.repos, tag, isPublic, 'stream-owner');

async function append(stream: string, n: number): Promise<void> {
  await server.repos.streams.append(
    Array.from({ length: n }, (_, i) => {
      const locus = loci[i % loci.length];
      return {
        stream,
        locus_id: locus.locus_id,
        alert_id: null,
        locus: {
          ra: locus.ra,
          dec: locus.dec,
          htm16: locus.htm16,
          properties: locus.properties,
          tags: [stream],
          catalogs: [],
          grav_wave_events: [],
        },
      };
    }),
  );
}

/** Reads server-sent events until `count` arrived; returns them and closes the connection. */
async function readEvents(path: string, count: number, headers: Record<string, string> = {}): Promise<Array<{ id: number; data: any }>> {
  const controller = new AbortController();
  const response = await fetch(`${server.url}${path}`, { headers, signal: controller.signal });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: Array<{ id: number; data: any }> = [];
  let buffer = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const id = /^id: (\d+)$/m.exec(block);
      const data = /^data: (.*)$/m.exec(block);
      if (id && data) events.push({ id: Number(id[1]), data: JSON.parse(data[1]) });
    }
  }
  controller.abort();
  return events;
}

beforeAll(async () => {
  server = await startTestServer({ ingest: ['ztf-avro-alert/samples', 'alerce'] });
  loci = await server.repos.loci.newestForFilters(20, 1);
  await enableTag('stream_public', true);
  await enableTag('stream_private', false);
});
afterAll(async () => server?.close());

describe('output streams', () => {
  it('lists the streams of public tags, with counts and offsets', async () => {
    await append('stream_public', 5);
    await append('stream_private', 2);
    const { body } = await server.getJson('/v1/streams');
    const names = body.data.map((s: { id: string }) => s.id);
    expect(names).toContain('stream_public');
    expect(names).not.toContain('stream_private');
    const stream = body.data.find((s: { id: string }) => s.id === 'stream_public');
    expect(stream.attributes).toMatchObject({ name: 'stream_public', messages: 5 });
    expect(stream.attributes.last_offset).toBeGreaterThan(0);
    expect((await server.getJson('/v1/streams/stream_private/messages')).status).toBe(404);
    expect((await server.getJson('/v1/streams/no_such_stream/events')).status).toBe(404);
  });

  it('pages by offset: every message once, in order, as JSON:API locus documents with their lightcurve', async () => {
    const seen: number[] = [];
    let url = '/v1/streams/stream_public/messages?after=0&limit=2';
    for (;;) {
      const { status, body } = await server.getJson(url);
      expect(status).toBe(200);
      if (body.data.length === 0) break;
      for (const m of body.data) {
        seen.push(m.attributes.offset);
        const doc = m.attributes.locus;
        expect(doc.data.type).toBe('locus');
        expect(doc.data.attributes.tags).toEqual(['stream_public']);
        expect(doc.data.attributes.lightcurve.split('\n')[0]).toMatch(/^time,alert_id,ant_mjd,/);
        expect(typeof doc.data.attributes.ra).toBe('number');
      }
      url = new URL(body.links.next).pathname + new URL(body.links.next).search;
    }
    expect(seen).toHaveLength(5);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(new Set(seen).size).toBe(5);
    for (const bad of ['after=-1', 'limit=0', 'limit=501', 'wait=31', 'after=x']) {
      const { status, body } = await server.getJson(`/v1/streams/stream_public/messages?${bad}`);
      expect(status, bad).toBe(400);
      expect(body.errors[0].status).toBe('400');
    }
  });

  it('long-polls: a request waiting after the last offset answers when a message arrives', async () => {
    const last = (await server.getJson('/v1/streams/stream_public/messages?after=0&limit=500')).body.meta.next_offset;
    const waiting = server.getJson(`/v1/streams/stream_public/messages?after=${last}&wait=20`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await append('stream_public', 1);
    const { body } = await waiting;
    expect(body.data).toHaveLength(1);
    expect(body.data[0].attributes.offset).toBeGreaterThan(last);
    const empty = await server.getJson(`/v1/streams/stream_public/messages?after=${body.meta.next_offset}&wait=1`);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.meta.next_offset).toBe(body.meta.next_offset);
  });

  it('sends server-sent events that a consumer resumes after a disconnect without gaps or repeats', async () => {
    const all = (await server.getJson('/v1/streams/stream_public/messages?after=0&limit=500')).body.data.map(
      (m: { attributes: { offset: number } }) => m.attributes.offset,
    );
    // The consumer goes away after a few events (everything its last read brought counts as seen).
    const first = await readEvents('/v1/streams/stream_public/events?after=0', 2);
    expect(first.map((e) => e.id)).toEqual(all.slice(0, first.length));
    expect(first[0].data.data.type).toBe('locus');
    // Reconnect as an EventSource does, with the last id seen; new messages arrive while connected.
    const resumed = readEvents('/v1/streams/stream_public/events', all.length - first.length + 2, {
      'last-event-id': String(first.at(-1)!.id),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await append('stream_public', 2);
    const rest = await resumed;
    const ids = [...first, ...rest].map((e) => e.id);
    expect(ids.slice(0, all.length)).toEqual(all);
    expect(ids).toHaveLength(all.length + 2);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });
});
