import { inflateSync } from 'node:zlib';

import { createTestDatabase, type TestDatabase } from '@antares/db';
import { BSON } from 'bson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { encodeStreamMessage, KafkaRelay, type StreamProducer } from './kafka-relay.ts';

// The Kafka side of the output streams. No broker runs here: the relay is driven against a recording
// producer with kafkajs' sendBatch shape, and the payload is decoded the way antares-client does.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

function recorder(failFirst = false): StreamProducer & { sent: Array<{ topic: string; key: string; value: Buffer }> } {
  const sent: Array<{ topic: string; key: string; value: Buffer }> = [];
  let fail = failFirst;
  return {
    sent,
    async sendBatch({ topicMessages }) {
      if (fail) {
        fail = false;
        throw new Error('broker not available');
      }
      for (const t of topicMessages) for (const m of t.messages) sent.push({ topic: t.topic, ...m });
    },
  };
}

const append = (stream: string, locusId: string) =>
  database.repos.streams.append([
    {
      stream,
      locus_id: locusId,
      alert_id: null,
      locus: {
        ra: 10.5,
        dec: -2.25,
        htm16: 123,
        properties: { num_alerts: 2, big_id: '1234567890123456789' },
        tags: [stream],
        catalogs: [],
        grav_wave_events: [],
      },
    },
  ]);

describe('Kafka relay', () => {
  it('encodes a message as zlib(BSON(locus document)) that decodes back to the same document', () => {
    const document = {
      data: { type: 'locus', id: 'ANT2026abc', attributes: { ra: 1.5, dec: -3, tags: ['high_snr'], properties: { n: 3, s: 'x' } } },
    };
    const value = encodeStreamMessage(document);
    expect(BSON.deserialize(inflateSync(value))).toEqual(document);
  });

  it('publishes every stream message once, in order, one topic per stream, and resumes after a failure or restart', async () => {
    await append('high_snr', 'ANT1');
    await append('in_m31', 'ANT2');
    await append('high_snr', 'ANT3');
    const producer = recorder(true);
    const relay = new KafkaRelay(database.repos, producer, { siteUrl: 'http://antares.test', topicPrefix: 'antares.', log: () => {} });
    await expect(relay.publishPending()).rejects.toThrow('broker not available');
    expect(producer.sent).toEqual([]);
    expect(await relay.publishPending()).toBe(3);
    expect(producer.sent.map((m) => [m.topic, m.key])).toEqual([
      ['antares.high_snr', 'ANT1'],
      ['antares.high_snr', 'ANT3'],
      ['antares.in_m31', 'ANT2'],
    ]);
    const decoded = BSON.deserialize(inflateSync(producer.sent[0].value));
    expect(decoded.data).toMatchObject({
      type: 'locus',
      id: 'ANT1',
      attributes: { ra: 10.5, dec: -2.25, tags: ['high_snr'], properties: { num_alerts: 2, big_id: '1234567890123456789' } },
    });
    expect(decoded.data.links.self).toBe('http://antares.test/v1/loci/ANT1');

    // A new relay (a restart) continues after the saved offset.
    await append('in_m31', 'ANT4');
    const again = recorder();
    expect(await new KafkaRelay(database.repos, again, { siteUrl: 'http://antares.test', topicPrefix: 'antares.' }).publishPending()).toBe(
      1,
    );
    expect(again.sent.map((m) => [m.topic, m.key])).toEqual([['antares.in_m31', 'ANT4']]);
  });
});
