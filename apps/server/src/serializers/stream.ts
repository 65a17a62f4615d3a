import type { ResourceObject } from '@antares/contract';

import type { StreamMessage } from '../services/stream-service.ts';
import { locusResource } from './locus.ts';

export function streamResource(
  base: string,
  s: { stream: string; description: string; messages: number; last_offset: number },
): ResourceObject {
  return {
    type: 'stream',
    id: s.stream,
    attributes: { name: s.stream, description: s.description, messages: s.messages, last_offset: s.last_offset },
    links: {
      self: `${base}/v1/streams/${encodeURIComponent(s.stream)}/messages`,
      events: `${base}/v1/streams/${encodeURIComponent(s.stream)}/events`,
    },
  };
}

/** The message's payload: the JSON:API locus document, as stream consumers (and Kafka) get it. */
export function streamLocusDocument(base: string, message: StreamMessage): { data: ResourceObject } {
  return { data: locusResource(base, message.locus, message.lightcurve) };
}

export function streamMessageResource(base: string, message: StreamMessage): ResourceObject {
  return {
    type: 'stream_message',
    id: String(message.row.message_id),
    attributes: {
      stream: message.row.stream,
      offset: message.row.message_id,
      alert_id: message.row.alert_id,
      created_at: message.row.created_at.toISOString(),
      locus: streamLocusDocument(base, message),
    },
  };
}
