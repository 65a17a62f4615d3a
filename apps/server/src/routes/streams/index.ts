import type { ServerResponse } from 'node:http';

import { listStreams, readStreamMessages, streamEvents } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { streamLocusDocument, streamMessageResource, streamResource } from '../../serializers/stream.ts';
import { StreamService } from '../../services/stream-service.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { eventStreams } from '../event-stream.ts';
import { baseUrl } from '../request-url.ts';

const HEARTBEAT_MS = 15_000;

/** Resolves when `out` can take more (or has closed). */
function drained(out: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.removeListener('drain', done);
      out.removeListener('close', done);
      resolve();
    };
    out.once('drain', done);
    out.once('close', done);
  });
}

/**
 * Output streams for downstream systems: every public tag is a stream of locus documents. Consumers
 * keep their own offset: `messages?after=` (with `wait=` seconds to long-poll) or server-sent events
 * (`events`, resuming from `Last-Event-ID`).
 */
export function streamRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const streams = new StreamService(repos);
  const events = eventStreams(app);

  route(app, auth, listStreams, async (request) => {
    const base = baseUrl(request, config.publicUrl);
    const list = await streams.list();
    return { data: list.map((s) => streamResource(base, s)), meta: { count: list.length } };
  });

  route(app, auth, readStreamMessages, async (request) => {
    // An empty value is as good as none (the schema lets `after=` through).
    const { after: afterGiven, limit: limitGiven, wait: waitGiven } = request.query;
    const after = afterGiven === '' || afterGiven === undefined ? 0 : afterGiven;
    const limit = limitGiven === '' || limitGiven === undefined ? 100 : limitGiven;
    const wait = waitGiven === '' || waitGiven === undefined ? 0 : waitGiven;
    let closed = false;
    request.raw.once('close', () => {
      closed = true;
    });
    const messages = await streams.messages(request.params.name, { after, limit, waitMs: wait * 1000 }, () => closed);
    const base = baseUrl(request, config.publicUrl);
    const next = messages.at(-1)?.row.message_id ?? after;
    const self = `${base}/v1/streams/${encodeURIComponent(request.params.name)}/messages`;
    return {
      data: messages.map((m) => streamMessageResource(base, m)),
      links: { self: `${self}?after=${after}&limit=${limit}`, next: `${self}?after=${next}&limit=${limit}` },
      meta: { count: messages.length, next_offset: next },
    };
  });

  route(app, auth, streamEvents, async (request, reply) => {
    await streams.assertReadable(request.params.name);
    const lastEventId = request.headers['last-event-id'];
    let after = streams.resumeOffset(typeof lastEventId === 'string' ? lastEventId : undefined, request.query.after);
    const base = baseUrl(request, config.publicUrl);
    const out = events.open(reply);
    let closed = false;
    const end = () => {
      closed = true;
    };
    request.raw.once('close', end);
    const forget = events.track(end);
    let lastWrite = Date.now();
    while (!closed) {
      const messages = await streams.read(request.params.name, after, 100, 1000, () => closed).catch(() => []);
      for (const m of messages) {
        const more = out.write(`id: ${m.row.message_id}\nevent: locus\ndata: ${JSON.stringify(streamLocusDocument(base, m))}\n\n`);
        after = m.row.message_id;
        lastWrite = Date.now();
        // Backpressure (ADR 0060): a consumer that reads slower than the stream grows is not buffered
        // for; the next message is built once the last ones have been handed to the network.
        if (!more && !closed) await drained(out);
      }
      if (Date.now() - lastWrite > HEARTBEAT_MS) {
        out.write(': keep-alive\n\n');
        lastWrite = Date.now();
      }
    }
    forget();
    out.end();
  });
}
