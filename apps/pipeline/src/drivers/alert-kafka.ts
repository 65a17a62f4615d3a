// Survey alerts from Kafka: each batch of messages is decoded (sources/alert-message.ts: ZTF's Avro
// containers, Rubin's Confluent-framed records), ingested like a file (Level 1, association, Level 2)
// and its offset committed afterwards (kafka-batch.ts): a crash replays it, and ingestion is idempotent.
// Every server joins one consumer group, so Kafka shares the topics' partitions among them.
import type { Repositories } from '@antares/db';

import { emptyStats, type IngestStats } from '../ingest/ingest-batch.ts';
import { ingestPackets, type IngestPacketsOptions } from '../ingest/ingest-packets.ts';
import type { AlertPacket } from '../sources/alert-avro.ts';
import { decodeAlertMessage } from '../sources/alert-message.ts';
import { alertSchemaSource, type SchemaSource } from '../sources/schema-sources.ts';
import { type ConsumerPort, handleThenCommit, type KafkaBatch, kafkajsPort, type KafkaMessage } from './kafka-batch.ts';

export type { KafkaMessage } from './kafka-batch.ts';

type AlertMessageOptions = IngestPacketsOptions & { schemas?: SchemaSource };

/** Decodes and ingests one batch of messages; undecodable ones are counted with their reason and skipped. */
export async function ingestAlertMessages(
  repos: Repositories,
  messages: KafkaMessage[],
  options: AlertMessageOptions = {},
): Promise<IngestStats> {
  const packets: AlertPacket[] = [];
  const stats = emptyStats();
  for (const message of messages) {
    const label = `${message.topic}[${message.partition}]@${message.offset}`;
    for (const record of await decodeAlertMessage(message.value, label, options.schemas)) {
      if ('packet' in record) packets.push(record.packet);
      else stats.undecodable.push({ file: record.file, index: record.index, reason: record.error });
    }
  }
  return ingestPackets(repos, packets, options, stats);
}

/**
 * One fetched batch: ingested (every transaction committed), then its offset committed through the
 * port. A failed ingestion commits nothing and throws, and the batch is delivered again.
 */
export function handleAlertBatch(
  repos: Repositories,
  batch: KafkaBatch,
  port: ConsumerPort,
  options: AlertMessageOptions = {},
): Promise<IngestStats> {
  return handleThenCommit(batch, port, (messages) => ingestAlertMessages(repos, messages, options));
}

export interface AlertConsumerOptions extends IngestPacketsOptions {
  brokers: string[];
  topics: string[];
  /** The consumer group: the same on every server, so Kafka assigns each partition to one of them. */
  groupId?: string;
  schemaRegistryUrl?: string;
  log?: (line: string) => void;
}

/**
 * Consumes alert topics (kafkajs), one ingested batch per fetched batch. kafkajs's own commits are off
 * (autoCommit: false): the offset is committed by handleAlertBatch once the batch is stored.
 */
export async function startAlertConsumer(repos: Repositories, options: AlertConsumerOptions): Promise<{ stop(): Promise<void> }> {
  const { Kafka, logLevel } = await import('kafkajs');
  const log = options.log ?? console.log;
  const schemas = alertSchemaSource(options.schemaRegistryUrl);
  const consumer = new Kafka({ clientId: 'antares-alerts', brokers: options.brokers, logLevel: logLevel.WARN }).consumer({
    groupId: options.groupId ?? 'antares-alerts',
  });
  await consumer.connect();
  for (const topic of options.topics) await consumer.subscribe({ topic, fromBeginning: false });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async (payload) => {
      const { batch } = payload;
      const stats = await handleAlertBatch(repos, batch, kafkajsPort(consumer, payload), { ...options, schemas });
      log(
        `kafka: ${batch.topic}[${batch.partition}] ${batch.messages.length} messages: ${stats.packetsStored} stored, ${stats.duplicates} already ingested, ${Object.values(stats.rejected).reduce((a, b) => a + b, 0)} rejected, ${stats.undecodable.length} undecodable`,
      );
      for (const u of stats.undecodable.slice(0, 5)) log(`kafka: ${u.file}: ${u.reason}`);
    },
  });
  return { stop: () => consumer.disconnect() };
}
