import type { Repositories } from '@antares/db';

import { ingestNotice } from '../gw/association.ts';
import { GwNoticeError, parseIgwnNotice } from '../gw/notice.ts';
import { type ConsumerPort, handleThenCommit, type KafkaBatch, kafkajsPort } from './kafka-batch.ts';

/** What one Kafka message of `igwn.gwalert` did. */
export type GwMessageOutcome = { ok: true; gracedbId: string; stored: boolean; associated: number } | { ok: false; error: string };

/**
 * One `igwn.gwalert` message (the IGWN alert JSON): stored and associated; a malformed one is reported
 * and skipped (the consumer goes on with the next).
 */
export async function handleGwMessage(repos: Repositories, value: Buffer | null): Promise<GwMessageOutcome> {
  if (!value) return { ok: false, error: 'empty message' };
  try {
    const notice = parseIgwnNotice(value.toString('utf8'));
    const result = await ingestNotice(repos, notice);
    return { ok: true, gracedbId: notice.gracedb_id, ...result };
  } catch (error) {
    if (error instanceof GwNoticeError) return { ok: false, error: error.message };
    throw error;
  }
}

/**
 * One fetched batch of notices, handled in order, then its offset committed through the port. A notice
 * that fails to store (not a malformed one: that is skipped) commits nothing and throws; the replayed
 * notices before it are stored already and change nothing.
 */
export function handleGwBatch(repos: Repositories, batch: KafkaBatch, port: ConsumerPort): Promise<GwMessageOutcome[]> {
  return handleThenCommit(batch, port, async (messages) => {
    const outcomes: GwMessageOutcome[] = [];
    for (const message of messages) outcomes.push(await handleGwMessage(repos, message.value));
    return outcomes;
  });
}

/**
 * Consumes gravitational-wave notices from Kafka (kafkajs), committing a batch's offset after its
 * notices are stored (autoCommit off: handleGwBatch commits). One group on every server, as for alerts.
 */
export async function startGwConsumer(
  repos: Repositories,
  options: { brokers: string[]; topic: string; groupId?: string; log?: (line: string) => void },
): Promise<{ stop(): Promise<void> }> {
  const { Kafka, logLevel } = await import('kafkajs');
  const log = options.log ?? console.log;
  const consumer = new Kafka({ clientId: 'antares-gw', brokers: options.brokers, logLevel: logLevel.WARN }).consumer({
    groupId: options.groupId ?? 'antares-gw',
  });
  await consumer.connect();
  await consumer.subscribe({ topic: options.topic, fromBeginning: false });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async (payload) => {
      for (const outcome of await handleGwBatch(repos, payload.batch, kafkajsPort(consumer, payload))) {
        log(
          outcome.ok
            ? `gw: ${outcome.gracedbId} ${outcome.stored ? `stored, ${outcome.associated} alerts associated` : 'already stored'}`
            : `gw: skipped a notice: ${outcome.error}`,
        );
      }
    },
  });
  return { stop: () => consumer.disconnect() };
}
