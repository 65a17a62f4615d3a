// Survey alerts from Kafka. Two message layouts are in use: ZTF publishes each alert as a small Avro
// object container (the schema travels with it); Rubin publishes the Confluent wire format (a zero
// byte, a 4-byte schema id, then the bare Avro record) whose writer schema is fetched once per id from
// a schema registry. Each batch of messages is ingested like a file (Level 1, association, Level 2) and
// committed afterwards: a crash replays it, and ingestion is idempotent.
import type { Repositories } from '@antares/db';
import { isGzip } from '../fits/fits.ts';
import { decodeAvroBuffer, decodeSchemaless, type AlertPacket, type DecodedRecord } from '../sources/alert-avro.ts';
import { ingestPackets, type IngestPacketsOptions } from '../ingest/ingest-packets.ts';
import { emptyStats, type IngestStats } from '../ingest/ingest-batch.ts';

/** Where writer schemas of Confluent-framed messages come from. */
export interface SchemaSource {
  schemaText(id: number): Promise<string>;
}

/** A Confluent schema registry (`GET {url}/schemas/ids/{id}` answers `{"schema": "<json>"}`), cached per id. */
export class SchemaRegistry implements SchemaSource {
  private readonly cache = new Map<number, Promise<string>>();
  constructor(private readonly url: string) {}

  schemaText(id: number): Promise<string> {
    let text = this.cache.get(id);
    if (!text) {
      text = this.fetchSchema(id);
      // A failed lookup (registry down) is retried with the next message, not remembered.
      text.catch(() => this.cache.delete(id));
      this.cache.set(id, text);
    }
    return text;
  }

  private async fetchSchema(id: number): Promise<string> {
    const response = await fetch(`${this.url.replace(/\/$/, '')}/schemas/ids/${id}`);
    if (!response.ok) throw new Error(`schema registry answered ${response.status} for schema id ${id}`);
    const body = (await response.json()) as { schema?: unknown };
    if (typeof body.schema !== 'string') throw new Error(`schema registry gave no schema for id ${id}`);
    return body.schema;
  }
}

const OCF_MAGIC = Buffer.from('Obj\x01', 'latin1');

/** Decodes one message value into its alert packets (or the reasons it has none). */
export async function decodeAlertMessage(value: Buffer | null, label: string, schemas?: SchemaSource): Promise<DecodedRecord[]> {
  if (!value || value.length === 0) return [{ file: label, index: -1, error: 'empty message' }];
  if (value.subarray(0, 4).equals(OCF_MAGIC) || isGzip(value)) return [...decodeAvroBuffer(value, label)];
  if (value[0] === 0 && value.length > 5) {
    const id = value.readUInt32BE(1);
    if (!schemas) return [{ file: label, index: -1, error: `Confluent-framed message (schema id ${id}) but no schema registry is configured (ANTARES_SCHEMA_REGISTRY_URL)` }];
    let schemaText: string;
    try {
      schemaText = await schemas.schemaText(id);
    } catch (error) {
      return [{ file: label, index: -1, error: (error as Error).message }];
    }
    return [decodeSchemaless(value.subarray(5), schemaText, label)];
  }
  return [{ file: label, index: -1, error: 'neither an Avro container nor a Confluent-framed Avro record' }];
}

export interface KafkaMessage {
  topic: string;
  partition: number;
  offset: string;
  value: Buffer | null;
}

/** Decodes and ingests one batch of messages; undecodable ones are counted with their reason and skipped. */
export async function ingestAlertMessages(repos: Repositories, messages: KafkaMessage[], options: IngestPacketsOptions & { schemas?: SchemaSource } = {}): Promise<IngestStats> {
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
  const consumer = new Kafka({ clientId: 'antares-alerts', brokers: options.brokers, logLevel: logLevel.WARN }).consumer({ groupId: options.groupId ?? 'antares-alerts' });
  await consumer.connect();
  for (const topic of options.topics) await consumer.subscribe({ topic, fromBeginning: false });
  await consumer.run({
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat }) => {
      const messages = batch.messages.map((m) => ({ topic: batch.topic, partition: batch.partition, offset: m.offset, value: m.value }));
      const stats = await ingestAlertMessages(repos, messages, { ...options, schemas });
      log(`kafka: ${batch.topic}[${batch.partition}] ${messages.length} messages: ${stats.packetsStored} stored, ${stats.duplicates} already ingested, ${Object.values(stats.rejected).reduce((a, b) => a + b, 0)} rejected, ${stats.undecodable.length} undecodable`);
      for (const u of stats.undecodable.slice(0, 5)) log(`kafka: ${u.file}: ${u.reason}`);
      const last = messages.at(-1);
      if (last) resolveOffset(last.offset);
      await heartbeat();
    },
  });
  return { stop: () => consumer.disconnect() };
}
