// The order a Kafka consumer of this pipeline keeps: a batch's messages are handled (decoded, ingested:
// every database transaction committed) and only then is the batch's offset committed to the group. A
// crash in between leaves the offset before the batch, so the group re-delivers it, and ingestion is
// idempotent: the replay stores nothing twice. Nothing here knows kafkajs: the drivers adapt its
// consumer to ConsumerPort (kafkajsPort), and tests drive the same functions from a recorded stream.

/** One fetched batch: consecutive messages of one partition, as kafkajs's eachBatch hands them over. */
export interface KafkaBatch {
  topic: string;
  partition: number;
  messages: Array<{ offset: string; value: Buffer | null }>;
}

export interface KafkaMessage {
  topic: string;
  partition: number;
  offset: string;
  value: Buffer | null;
}

export interface TopicPartitionOffset {
  topic: string;
  partition: number;
  /** Kafka's convention: the committed offset is the next message to read, one past the last handled. */
  offset: string;
}

/** What a batch handler needs of its consumer group member. */
export interface ConsumerPort {
  commitOffsets(offsets: TopicPartitionOffset[]): Promise<void>;
  /** Tells the group coordinator this member is alive (a long batch must not cost it its partitions). */
  heartbeat(): Promise<void>;
}

/**
 * Runs `work` on the batch's messages, then commits the offset after the last one. If `work` throws,
 * nothing is committed and the error propagates: the consumer then fetches the batch again.
 */
export async function handleThenCommit<T>(
  batch: KafkaBatch,
  port: ConsumerPort,
  work: (messages: KafkaMessage[]) => Promise<T>,
): Promise<T> {
  const { topic, partition } = batch;
  const messages = batch.messages.map((m) => ({ topic, partition, offset: m.offset, value: m.value }));
  const result = await work(messages);
  const last = messages.at(-1);
  if (last) await port.commitOffsets([{ topic, partition, offset: (BigInt(last.offset) + 1n).toString() }]);
  await port.heartbeat();
  return result;
}

/** The parts of kafkajs's consumer and eachBatch payload that kafkajsPort uses. */
export interface KafkajsConsumerLike {
  commitOffsets(offsets: TopicPartitionOffset[]): Promise<void>;
}
export interface KafkajsBatchPayloadLike {
  resolveOffset(offset: string): void;
  heartbeat(): Promise<void>;
}

/**
 * The port of a kafkajs consumer run with autoCommit off. kafkajs fetches a partition from its resolved
 * offset, not from its committed one, so each committed offset is resolved too (resolveOffset takes
 * the last handled message's offset and adds one itself). Commit first: if the commit fails, the batch
 * stays unresolved and is fetched again. The payload's resolveOffset acts on its own batch's partition:
 * one port per batch, committing that batch only.
 */
export function kafkajsPort(consumer: KafkajsConsumerLike, payload: KafkajsBatchPayloadLike): ConsumerPort {
  return {
    async commitOffsets(offsets) {
      await consumer.commitOffsets(offsets);
      for (const o of offsets) payload.resolveOffset((BigInt(o.offset) - 1n).toString());
    },
    heartbeat: () => payload.heartbeat(),
  };
}
