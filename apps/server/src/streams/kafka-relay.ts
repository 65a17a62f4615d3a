import { deflateSync } from 'node:zlib';

import type { Repositories } from '@antares/db';
import { Poller } from '@antares/pipeline';
import { BSON } from 'bson';

import { streamLocusDocument } from '../serializers/stream.ts';
import { StreamService } from '../services/stream-service.ts';

/** What the relay needs of a Kafka producer (kafkajs' Producer has it); tests give their own. */
export interface StreamProducer {
  sendBatch(batch: { topicMessages: Array<{ topic: string; messages: Array<{ key: string; value: Buffer }> }> }): Promise<unknown>;
}

const RELAY = 'kafka';

/** A connected kafkajs producer for these brokers. */
export async function connectKafkaProducer(brokers: string[]): Promise<StreamProducer & { disconnect(): Promise<void> }> {
  const { Kafka, logLevel } = await import('kafkajs');
  const producer = new Kafka({ clientId: 'antares', brokers, logLevel: logLevel.WARN }).producer();
  await producer.connect();
  return producer;
}

/** The message value the real antares-client decodes: zlib(BSON(JSON:API locus document)). */
export function encodeStreamMessage(document: object): Buffer {
  return deflateSync(BSON.serialize(document));
}

/**
 * Publishes the output streams to Kafka, one topic per stream: it follows the durable stream log and
 * keeps its offset in the database, so a restart continues where it stopped (a message can be
 * published twice after a crash, never skipped).
 */
export class KafkaRelay {
  private readonly poller: Poller;
  private readonly streams: StreamService;

  constructor(
    private readonly repos: Repositories,
    private readonly producer: StreamProducer,
    private readonly options: { siteUrl: string; topicPrefix?: string; pollMs?: number; log?: (line: string) => void },
  ) {
    this.streams = new StreamService(repos);
    this.poller = new Poller(
      () => this.publishPending(),
      options.pollMs ?? 1000,
      (error) => (options.log ?? console.error)(`kafka relay: ${error.message}`),
    );
  }

  start(): void {
    this.poller.start();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** Publishes everything after the saved offset, a batch at a time; returns how many messages. */
  async publishPending(batchSize = 500): Promise<number> {
    let published = 0;
    for (;;) {
      const after = await this.repos.streams.relayOffset(RELAY);
      const rows = await this.repos.streams.readAll(after, batchSize);
      if (rows.length === 0 || this.poller.isStopped) return published;
      const messages = await this.streams.messagesOf(rows);
      const byTopic = new Map<string, Array<{ key: string; value: Buffer }>>();
      for (const m of messages) {
        const topic = `${this.options.topicPrefix ?? ''}${m.row.stream}`;
        const list = byTopic.get(topic) ?? [];
        list.push({ key: m.row.locus_id, value: encodeStreamMessage(streamLocusDocument(this.options.siteUrl, m)) });
        byTopic.set(topic, list);
      }
      await this.producer.sendBatch({ topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list })) });
      await this.repos.streams.saveRelayOffset(RELAY, rows.at(-1)!.message_id);
      published += rows.length;
    }
  }
}
