import type { FastifyInstance, FastifyRequest } from 'fastify';

import { badRequest } from '../../errors.ts';
import { streamLocusDocument, streamMessageResource, streamResource } from '../../serializers/stream.ts';
import { integerParam, type QueryParams, single } from '../../services/query-params.ts';
import { STREAM_PAGE_MAX, StreamService } from '../../services/stream-service.ts';
import type { RouteContext } from '../context.ts';
import { baseUrl } from '../request-url.ts';

const WAIT_MAX_SECONDS = 30;
const HEARTBEAT_MS = 15_000;

/**
 * Output streams for downstream systems: every public tag is a stream of locus documents. Consumers
 * keep their own offset: `messages?after=` (with `wait=` seconds to long-poll) or server-sent events
 * (`events`, resuming from `Last-Event-ID`).
 */
export function streamRoutes(app: FastifyInstance, { repos, config }: RouteContext): void {
  const streams = new StreamService(repos);
  // Open event streams end when the server closes (they would otherwise keep it open).
  const openEventStreams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of openEventStreams) end();
  });

  app.get('/v1/streams', async (request) => {
    const base = baseUrl(request, config.publicUrl);
    const list = await streams.list();
    return { data: list.map((s) => streamResource(base, s)), meta: { count: list.length } };
  });

  app.get<{ Params: { name: string } }>('/v1/streams/:name/messages', async (request) => {
    await streams.assertReadable(request.params.name);
    const query = request.query as QueryParams;
    const after = integerParam(query, 'after', 0, 0, Number.MAX_SAFE_INTEGER);
    const limit = integerParam(query, 'limit', 100, 1, STREAM_PAGE_MAX);
    const wait = integerParam(query, 'wait', 0, 0, WAIT_MAX_SECONDS);
    let closed = false;
    request.raw.once('close', () => {
      closed = true;
    });
    const messages = await streams.read(request.params.name, after, limit, wait * 1000, () => closed);
    const base = baseUrl(request, config.publicUrl);
    const next = messages.at(-1)?.row.message_id ?? after;
    const self = `${base}/v1/streams/${encodeURIComponent(request.params.name)}/messages`;
    return {
      data: messages.map((m) => streamMessageResource(base, m)),
      links: { self: `${self}?after=${after}&limit=${limit}`, next: `${self}?after=${next}&limit=${limit}` },
      meta: { count: messages.length, next_offset: next },
    };
  });

  app.get<{ Params: { name: string } }>('/v1/streams/:name/events', async (request, reply) => {
    await streams.assertReadable(request.params.name);
    let after = resumeOffset(request);
    const base = baseUrl(request, config.publicUrl);
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    out.write('retry: 2000\n\n');
    let closed = false;
    const end = () => {
      closed = true;
    };
    request.raw.once('close', end);
    openEventStreams.add(end);
    let lastWrite = Date.now();
    while (!closed) {
      const messages = await streams.read(request.params.name, after, 100, 1000, () => closed).catch(() => []);
      for (const m of messages) {
        out.write(`id: ${m.row.message_id}\nevent: locus\ndata: ${JSON.stringify(streamLocusDocument(base, m))}\n\n`);
        after = m.row.message_id;
        lastWrite = Date.now();
      }
      if (Date.now() - lastWrite > HEARTBEAT_MS) {
        out.write(': keep-alive\n\n');
        lastWrite = Date.now();
      }
    }
    openEventStreams.delete(end);
    out.end();
  });
}

/** Where an events consumer resumes: the Last-Event-ID its client sends on reconnection, else `after`. */
function resumeOffset(request: FastifyRequest): number {
  const header = request.headers['last-event-id'];
  const text = (typeof header === 'string' && header !== '' ? header : single(request.query as QueryParams, 'after')) ?? '0';
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw badRequest('Last-Event-ID and after must be whole numbers');
  return n;
}
