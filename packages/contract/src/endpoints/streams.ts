/**
 * Output streams for downstream systems: every public tag is a durable log of locus documents. Consumers
 * keep their own offset: `messages?after=` (with `wait=` seconds to long-poll) or server-sent `events`.
 */
import Type from 'typebox';

import { allDocument, pathParam, resource } from './common.ts';
import { endpoint } from './define.ts';
import { Locus } from './loci.ts';

const tags = ['Streams'];

/** Messages per answer at most. */
export const STREAM_PAGE_MAX = 500;
/** The longest long-poll, in seconds. */
export const STREAM_WAIT_MAX_SECONDS = 30;

export const Stream = resource(
  'stream',
  { name: Type.String(), description: Type.String(), messages: Type.Integer(), last_offset: Type.Integer() },
  { links: true },
);

export const StreamMessage = resource('stream_message', {
  stream: Type.String(),
  offset: Type.Integer(),
  alert_id: Type.Union([Type.String(), Type.Null()], { description: 'The alert that made the filter tag the locus' }),
  created_at: Type.String({ format: 'date-time' }),
  locus: Type.Object({ data: Locus }, { description: 'The JSON:API locus document as it was when tagged' }),
});

/**
 * A whole number in range, or empty (then the default, as an absent parameter): clients send `after=`
 * before they have an offset.
 */
const wholeOrEmpty = (name: string, description: string, min: number, max: number, fallback: number) =>
  Type.Optional(
    Type.Union([Type.Integer({ minimum: min, maximum: max }), Type.Literal('')], {
      default: fallback,
      description,
      'x-error': `${name} must be a whole number from ${min} to ${max}`,
    }),
  );

const name = Type.Object({ name: pathParam('Stream (tag) name.') });
const NO_STREAM = 'No stream of this name';

export const listStreams = endpoint({
  method: 'GET',
  path: '/v1/streams',
  operationId: 'list_streams',
  access: 'public',
  tags,
  summary: 'Output streams (one per public tag) with message counts and newest offsets',
  response: {
    status: 200,
    description: 'stream resources (links.self: messages, links.events: server-sent events); meta.count',
    schema: allDocument(Stream),
  },
});

export const readStreamMessages = endpoint({
  method: 'GET',
  path: '/v1/streams/:name/messages',
  operationId: 'read_stream_messages',
  access: 'public',
  tags,
  summary: 'Messages of a stream after an offset, oldest first (long-poll with wait)',
  description: "Consumers keep their own offset: pass the previous answer's meta.next_offset as `after`.",
  params: name,
  query: Type.Object({
    after: wholeOrEmpty('after', 'Offset of the last message already read (0: from the start).', 0, Number.MAX_SAFE_INTEGER, 0),
    limit: wholeOrEmpty('limit', 'Messages per answer.', 1, STREAM_PAGE_MAX, 100),
    wait: wholeOrEmpty('wait', 'Seconds to wait for a first message when there is none yet (long-poll).', 0, STREAM_WAIT_MAX_SECONDS, 0),
  }),
  response: {
    status: 200,
    description:
      'stream_message resources (attributes.locus: the JSON:API locus document); meta.next_offset is the next `after`, links.next',
    schema: Type.Object({
      data: Type.Array(StreamMessage),
      links: Type.Object({ self: Type.String(), next: Type.String() }),
      meta: Type.Object({ count: Type.Integer(), next_offset: Type.Integer() }),
    }),
  },
  errors: { 400: 'after, limit or wait out of range', 404: NO_STREAM },
});

export const streamEvents = endpoint({
  method: 'GET',
  path: '/v1/streams/:name/events',
  operationId: 'stream_events',
  access: 'public',
  tags,
  summary: 'Server-sent events of a stream',
  description:
    'Each event is `event: locus`, `id:` its offset and `data:` the JSON:API locus document; a comment line keeps the connection alive every 15 s. Reconnecting clients resume after their `Last-Event-ID` header (it wins over `after`).',
  params: name,
  query: Type.Object({
    // Read by the service (a Last-Event-ID header wins over it, so a bad `after` beside one is no error).
    after: Type.Optional(Type.String({ description: 'Offset to start after when no Last-Event-ID is sent (0: from the start).' })),
  }),
  response: { status: 200, description: 'An endless event stream', mediaType: 'text/event-stream', schema: Type.String() },
  errors: { 400: 'Last-Event-ID or after is not a whole number', 404: NO_STREAM },
});
