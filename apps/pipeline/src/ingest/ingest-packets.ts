import type { Repositories } from '@antares/db';

import type { Level2Stage } from '../filters/level2.ts';
import type { GwMatcher } from '../gw/association.ts';
import type { AlertPacket } from '../sources/alert-avro.ts';
import type { WatchMatcher } from '../stages/watch-match.ts';
import { emptyStats, ingestBatch, type IngestStats } from './ingest-batch.ts';

export interface IngestPacketsOptions {
  batchSize?: number;
  level2?: Level2Stage;
  watch?: WatchMatcher;
  gw?: GwMatcher;
}

/**
 * Ingests packets already in memory (a Kafka batch, an upload) batch by batch, each followed by Level 2
 * on the loci it touched. Files go through ingestFiles instead, which overlaps decoding and storing.
 */
export async function ingestPackets(
  repos: Repositories,
  packets: AlertPacket[],
  options: IngestPacketsOptions = {},
  stats: IngestStats = emptyStats(),
): Promise<IngestStats> {
  const size = options.batchSize ?? 500;
  if (packets.length > 0) await options.level2?.refresh();
  for (let i = 0; i < packets.length; i += size) {
    const batch = packets.slice(i, i + size);
    const touched = await ingestBatch(repos, batch, stats, { watch: options.watch, gw: options.gw });
    await options.level2?.run(touched, { alerts: batch.length });
  }
  return stats;
}
