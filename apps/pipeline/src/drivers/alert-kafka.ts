// Survey alerts from Kafka: each batch of messages is decoded (sources/alert-message.ts: ZTF's Avro
// containers, Rubin's Confluent-framed records), ingested like a file (Level 1, association, Level 2)
// and committed afterwards: a crash replays it, and ingestion is idempotent.
import type { Repositories } from '@antares/db';

import { emptyStats, type IngestStats } from '../ingest/ingest-batch.ts';
import { ingestPackets, type IngestPacketsOptions } from '../ingest/ingest-packets.ts';
import type { AlertPacket } from '../sources/alert-avro.ts';
import { decodeAlertMessage, SchemaRegistry, type SchemaSource } from '../sources/alert-message.ts';

export interface KafkaMessage {
  topic: string;
  partition: number;
  offset: string;
  value: Buffer | null;
}

/** Decodes and ingests one batch of messages; undecodable ones are counted with their reason and skipped. */
export async function ingestAlertMessages(
  repos: Repositories,
  messages: KafkaMessage[],
  options: IngestPacketsOptions & { schemas?: SchemaSource } = {},
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

export interface AlertConsumerOptions extends IngestPacketsOptions {
  brokers: string[];
  topics: string[];
  groupId?: string;
  schemaRegistryUrl?: string;
  log?: (line: string) => void;
}

/** Consumes alert topics (kafkajs), one ingested batch per fetched batch, committed after it is stored. */
export async function startAlertConsumer(repos: Repositories, options: AlertConsumerOptions): Promise<{ stop(): Promise<void> }> {
  const { Kafka, logLevel } = await import('kafkajs');
  const log = options.log ?? console.log;
  const schemas = options.schemaRegistryUrl ? new SchemaRegistry(options.schemaRegistryUrl) : undefined;
  const consumer = new Kafka({ clientId: 'antares-alerts', brokers: options.brokers, logLevel: logLevel.WARN }).consumer({
    groupId: options.groupId ?? 'antares-alerts',
  });
  await consumer.connect();
  for (const topic of options.topics) await consumer.subscribe({ topic, fromBeginning: false });
  await consumer.run({
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat }) => {
      const messages = batch.messages.map((m) => ({ topic: batch.topic, partition: batch.partition, offset: m.offset, value: m.value }));
      const stats = await ingestAlertMessages(repos, messages, { ...options, schemas });
      log(
        `kafka: ${batch.topic}[${batch.partition}] ${messages.length} messages: ${stats.packetsStored} stored, ${stats.duplicates} already ingested, ${Object.values(stats.rejected).reduce((a, b) => a + b, 0)} rejected, ${stats.undecodable.length} undecodable`,
      );
      for (const u of stats.undecodable.slice(0, 5)) log(`kafka: ${u.file}: ${u.reason}`);
      const last = messages.at(-1);
      if (last) resolveOffset(last.offset);
      await heartbeat();
    },
  });
  return { stop: () => consumer.disconnect() };
}
