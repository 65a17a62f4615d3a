/** Output streams: every public tag is a durable log of locus documents (routes/streams). */
import { fail, jsonApi, op, pathParam, type Paths, queryParam } from '../shared.ts';

const tags = ['Streams'];
const name = pathParam('name', 'Stream (tag) name.');
const noStream = fail({ 404: 'No stream of this name' });

export const streamPaths: Paths = {
  '/v1/streams': {
    get: op('get', 'public', {
      tags,
      operationId: 'list_streams',
      summary: 'Output streams (one per public tag) with message counts and newest offsets',
      responses: { 200: jsonApi('stream resources (links.self: messages, links.events: server-sent events); meta.count') },
    }),
  },
  '/v1/streams/{name}/messages': {
    get: op('get', 'public', {
      tags,
      operationId: 'read_stream_messages',
      summary: 'Messages of a stream after an offset, oldest first (long-poll with wait)',
      description: "Consumers keep their own offset: pass the previous answer's meta.next_offset as `after`.",
      parameters: [
        name,
        queryParam('after', 'Offset of the last message already read (0: from the start).', { type: 'integer', minimum: 0, default: 0 }),
        queryParam('limit', 'Messages per answer.', { type: 'integer', minimum: 1, maximum: 500, default: 100 }),
        queryParam('wait', 'Seconds to wait for a first message when there is none yet (long-poll).', {
          type: 'integer',
          minimum: 0,
          maximum: 30,
          default: 0,
        }),
      ],
      responses: {
        200: jsonApi(
          'stream_message resources (attributes.locus: the JSON:API locus document); meta.next_offset is the next `after`, links.next',
        ),
        ...fail({ 400: 'after, limit or wait out of range', 404: 'No stream of this name' }),
      },
    }),
  },
  '/v1/streams/{name}/events': {
    get: op('get', 'public', {
      tags,
      operationId: 'stream_events',
      summary: 'Server-sent events of a stream',
      description:
        'Each event is `event: locus`, `id:` its offset and `data:` the JSON:API locus document; a comment line keeps the connection alive every 15 s. Reconnecting clients resume after their Last-Event-ID.',
      parameters: [
        name,
        queryParam('after', 'Offset to start after when no Last-Event-ID is sent (0: from the start).', {
          type: 'integer',
          minimum: 0,
          default: 0,
        }),
        {
          name: 'Last-Event-ID',
          in: 'header',
          description: 'Offset of the last event received (sent by EventSource on reconnection); wins over `after`.',
          schema: { type: 'integer', minimum: 0 },
        },
      ],
      responses: {
        200: { description: 'An endless event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        ...fail({ 400: 'Last-Event-ID or after is not a whole number' }),
        ...noStream,
      },
    }),
  },
};
