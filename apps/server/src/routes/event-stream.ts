import type { ServerResponse } from 'node:http';

import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Server-sent events (streams' /events, a backtest's /events). `open` takes the answer over from Fastify
 * and writes the event-stream head; `track` registers how to end one stream, so that every open stream
 * ends when the server closes (they would otherwise keep it open) and returns the function that forgets it.
 */
export function eventStreams(app: FastifyInstance): {
  open: (reply: FastifyReply) => ServerResponse;
  track: (end: () => void) => () => void;
} {
  const ends = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of ends) end();
  });
  return {
    open(reply) {
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      out.write('retry: 2000\n\n');
      return out;
    },
    track(end) {
      ends.add(end);
      return () => ends.delete(end);
    },
  };
}
