// Test support for the Kafka drivers. No broker runs here: the real alert packets of ../shared/data
// are the message values a broker would deliver (ZTF's one-alert Avro containers, Rubin's records in
// Confluent's wire format with a schema registry on loopback), laid out in topics and partitions with
// offsets, and a consumer group member is played by a loop that fetches batches the way kafkajs does.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { expandInputs } from '../ingest/ingest-files.ts';
import { iterateBlocks, readContainerHeader } from '../sources/avro-container.ts';
import { confluentFrame } from '../testing/confluent-files.ts';
import type { ConsumerPort, KafkaBatch } from './kafka-batch.ts';

export const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');
export const RUBIN_FILES = expandInputs([path.join(DATA, 'fink-broker/rubin_v9.0_fink_subset')]);
export const ZTF_FILES = expandInputs([path.join(DATA, 'ztf-avro-alert/samples')]);
export const SCHEMA_ID = 900;

/** The Confluent wire-format message (zero byte, schema id, bare record) of a one-record Rubin file. */
export function confluentMessage(file: string, schemaId = SCHEMA_ID): { value: Buffer; schema: string } {
  const bytes = readFileSync(file);
  const header = readContainerHeader(bytes);
  if (header.codec !== 'null') throw new Error(`${file}: codec ${header.codec}, expected null`);
  const [block] = [...iterateBlocks(bytes, header)];
  if (!block.ok || block.count !== 1) throw new Error(`${file}: expected one record`);
  return { value: confluentFrame(schemaId, block.data), schema: header.schema };
}

export interface SchemaRegistryServer {
  url: string;
  /** The requests it has answered. */
  lookups(): number;
  close(): Promise<void>;
}

/** A schema registry on loopback that knows the Rubin files' writer schema as SCHEMA_ID. */
export async function startSchemaRegistry(): Promise<SchemaRegistryServer> {
  const { schema } = confluentMessage(RUBIN_FILES[0]);
  let lookups = 0;
  const server = http.createServer((req, res) => {
    lookups++;
    if (req.url === `/schemas/ids/${SCHEMA_ID}`) {
      res.setHeader('content-type', 'application/vnd.schemaregistry.v1+json');
      res.end(JSON.stringify({ schema }));
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ error_code: 40403, message: 'Schema not found' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lookups: () => lookups,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface TopicPartition {
  topic: string;
  partition: number;
}

const keyOf = (tp: TopicPartition): string => `${tp.topic}[${tp.partition}]`;

/** Topics' partitions with their messages, and one consumer group's committed offsets on them. */
export class RecordedStream {
  private readonly logs = new Map<string, KafkaBatch>();
  /** The group's committed offsets as the broker keeps them: the next offset to read. */
  readonly committed = new Map<string, bigint>();
  /** Every commit in the order the broker received it. */
  readonly commits: Array<TopicPartition & { offset: string }> = [];

  append(topic: string, partition: number, value: Buffer): void {
    const key = keyOf({ topic, partition });
    const log = this.logs.get(key) ?? { topic, partition, messages: [] };
    log.messages.push({ offset: String(log.messages.length), value });
    this.logs.set(key, log);
  }

  partitions(): TopicPartition[] {
    return [...this.logs.values()].map(({ topic, partition }) => ({ topic, partition })).sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  }

  messages(tp: TopicPartition): KafkaBatch['messages'] {
    return this.logs.get(keyOf(tp))?.messages ?? [];
  }

  get messageCount(): number {
    return this.partitions().reduce((n, tp) => n + this.messages(tp).length, 0);
  }

  committedOffset(tp: TopicPartition): bigint {
    return this.committed.get(keyOf(tp)) ?? 0n;
  }

  /**
   * The partitions of each of `members` group members, as kafkajs's default assigner deals them:
   * the sorted topic-partitions in turn.
   */
  assign(members: number): TopicPartition[][] {
    const shares: TopicPartition[][] = Array.from({ length: members }, () => []);
    this.partitions().forEach((tp, i) => shares[i % members].push(tp));
    return shares;
  }

  /** A member's port: the broker refuses commits for partitions the member was not assigned. */
  port(assigned: TopicPartition[]): ConsumerPort & { heartbeats: number } {
    const owned = new Set(assigned.map(keyOf));
    const port = {
      heartbeats: 0,
      commitOffsets: async (offsets: Array<TopicPartition & { offset: string }>) => {
        for (const o of offsets) {
          if (!owned.has(keyOf(o))) throw new Error(`${keyOf(o)} is not assigned to this member`);
          this.committed.set(keyOf(o), BigInt(o.offset));
          this.commits.push({ topic: o.topic, partition: o.partition, offset: o.offset });
        }
      },
      heartbeat: async () => {
        port.heartbeats++;
      },
    };
    return port;
  }

  /**
   * One member consuming its partitions to their end: each from the group's committed offset, one
   * batch of at most `maxMessages` per partition in turn, the next fetch after the handled batch (as
   * kafkajs fetches after eachBatch returns). A handler's error stops the member, as a crash would.
   * Returns the number of batches handled.
   */
  async consume(assigned: TopicPartition[], maxMessages: number, handle: (batch: KafkaBatch) => Promise<unknown>): Promise<number> {
    const positions = new Map(assigned.map((tp) => [keyOf(tp), Number(this.committedOffset(tp))]));
    let batches = 0;
    for (let pending = true; pending;) {
      pending = false;
      for (const tp of assigned) {
        const from = positions.get(keyOf(tp))!;
        const messages = this.messages(tp).slice(from, from + maxMessages);
        if (messages.length === 0) continue;
        await handle({ ...tp, messages });
        positions.set(keyOf(tp), from + messages.length);
        batches++;
        pending = true;
      }
    }
    return batches;
  }
}

/**
 * The stream the group tests consume: the ZTF samples on topic `ztf` and the Rubin subset on
 * `lsst-alerts`, 3 partitions each, dealt in turn; a message that is no alert; and some alerts a
 * producer sent twice, the copy in another partition, so that two members can meet on one alert.
 */
export function recordAlertStream(): RecordedStream {
  const stream = new RecordedStream();
  const ztf = ZTF_FILES.map((file) => readFileSync(file));
  const rubin = RUBIN_FILES.map((file) => confluentMessage(file).value);
  ztf.forEach((value, i) => stream.append('ztf', i % 3, value));
  rubin.forEach((value, i) => stream.append('lsst-alerts', i % 3, value));
  stream.append('lsst-alerts', 1, Buffer.from('not an alert'));
  stream.append('ztf', 1, ztf[0]);
  rubin.slice(0, 6).forEach((value, i) => stream.append('lsst-alerts', (i + 1) % 3, value));
  return stream;
}
