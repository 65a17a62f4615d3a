import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { setImmediate } from 'node:timers/promises';

import { type Repositories, retryOnConnectionLoss, warnRetry } from '@antares/db';

import type { Level2Stage } from '../filters/level2.ts';
import type { GwMatcher } from '../gw/association.ts';
import type { AlertPacket } from '../sources/alert-avro.ts';
import { decodeAvroFile } from '../sources/alert-avro.ts';
import type { SchemaSource } from '../sources/schema-sources.ts';
import type { WatchMatcher } from '../stages/watch-match.ts';
import { emptyStats, ingestBatch, type IngestStats } from './ingest-batch.ts';

export interface IngestProgress {
  filesDone: number;
  filesTotal: number;
  packetsRead: number;
}

export interface IngestFilesOptions {
  batchSize?: number;
  /** Level 2 filters, run on the loci of each batch once it is stored. */
  level2?: Pick<Level2Stage, 'run'>;
  /** Watch lists, matched against every new alert. */
  watch?: WatchMatcher;
  /** Gravitational-wave events, associated with new detections. */
  gw?: GwMatcher;
  onProgress?: (progress: IngestProgress) => void;
  /** Writer schemas of Confluent-framed Rubin records (alertSchemaSource); the shipped Rubin schemas by default. */
  schemas?: SchemaSource;
}

const AVRO_FILE = /\.avro(\.gz)?$/i;
/** Packets decoded between two turns of the event loop. */
const YIELD_EVERY = 20;

/** Files named on the command line plus every .avro / .avro.gz below the folders named there, sorted. */
export function expandInputs(inputs: string[]): string[] {
  const files: string[] = [];
  const visit = (entry: string) => {
    const stat = statSync(entry);
    if (stat.isDirectory()) {
      for (const name of readdirSync(entry).sort()) {
        const child = path.join(entry, name);
        if (statSync(child).isDirectory() || AVRO_FILE.test(name)) visit(child);
      }
    } else {
      files.push(entry);
    }
  };
  for (const input of inputs) visit(input);
  return files;
}

/** Decodes files and ingests their packets in batches; undecodable records are reported and skipped. */
export async function ingestFiles(repos: Repositories, files: string[], options: IngestFilesOptions = {}): Promise<IngestStats> {
  const batchSize = options.batchSize ?? 500;
  const stats = emptyStats();
  let batch: AlertPacket[] = [];
  // Batches are stored one after another (each needs the loci of the one before) while the next one is
  // decoded; Level 2 of a batch runs while the next batch is stored (its Python workers and the
  // database work then overlap), one batch behind at most, and Level 2 runs in batch order. The next
  // batch commits only once Level 2 has read the loci of the one before, so the filters see each
  // locus as its own batch left it, not sometimes with the next batch's alerts (ADR 0043).
  let storing: Promise<string[]> = Promise.resolve([]);
  let filtering: Promise<void> = Promise.resolve();
  let filteringBefore: Promise<void> = Promise.resolve();
  let lociRead: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (batch.length === 0) return;
    const packets = batch;
    batch = [];
    await storing;
    await filteringBefore;
    const stored = ingestBatch(repos, packets, stats, { watch: options.watch, gw: options.gw, commitAfter: lociRead });
    storing = stored;
    filteringBefore = filtering;
    const previous = filtering;
    let onLociRead = () => {};
    lociRead = new Promise<void>((resolve) => (onLociRead = resolve));
    filtering = stored.then(async (touched) => {
      await previous;
      await options.level2?.run(touched, { onLociRead, alerts: packets.length });
    });
    // A run that failed, or ended without reading, holds nothing back.
    filtering.then(onLociRead, onLociRead);
    // Keep failures from going unobserved until they are awaited; they are rethrown there.
    stored.catch(() => {});
    filtering.catch(() => {});
  };
  let filesDone = 0;
  for (const file of files) {
    for await (const record of decodeAvroFile(file, options.schemas)) {
      if ('error' in record) {
        stats.undecodable.push({ file: record.file, index: record.index, reason: record.error });
        continue;
      }
      batch.push(record.packet);
      // Decoding only awaits promises that are already settled, which never lets the event loop turn:
      // the batch being stored would get no replies from the database, nor send it COPY data, until
      // the whole next batch was decoded. Letting it turn now and then overlaps the two.
      if (batch.length % YIELD_EVERY === 0) await setImmediate();
      if (batch.length >= batchSize) {
        await flush();
        options.onProgress?.({ filesDone, filesTotal: files.length, packetsRead: stats.packetsRead });
      }
    }
    filesDone++;
    options.onProgress?.({ filesDone, filesTotal: files.length, packetsRead: stats.packetsRead + batch.length });
  }
  await flush();
  await storing;
  await filtering;
  if (stats.packetsStored > 0) await retryOnConnectionLoss(() => repos.afterBulkLoad(), { onRetry: warnRetry('the statistics refresh') });
  options.onProgress?.({ filesDone, filesTotal: files.length, packetsRead: stats.packetsRead });
  return stats;
}

/** The summary `antares ingest` prints. */
export function formatIngestSummary(stats: IngestStats): string {
  const rejectedTotal = Object.values(stats.rejected).reduce((a, b) => a + b, 0);
  const lines = [
    `packets read:        ${stats.packetsRead + stats.undecodable.length}`,
    `  decoded:           ${stats.packetsRead}`,
    `  undecodable:       ${stats.undecodable.length}`,
    `  rejected (Level 1): ${rejectedTotal}`,
    ...Object.entries(stats.rejected)
      .sort()
      .map(([reason, n]) => `    ${reason}: ${n}`),
    `  already ingested:  ${stats.duplicates}`,
    `  stored:            ${stats.packetsStored}`,
    `alerts stored:       ${stats.alertsStored} (history detections dropped by Level 1: ${stats.historyRowsRejected})`,
    `loci created:        ${stats.lociCreated}`,
    `loci updated:        ${stats.lociUpdated}`,
  ];
  if (stats.thumbnailErrors > 0) lines.push(`cutouts skipped (not FITS): ${stats.thumbnailErrors}`);
  if (stats.undecodable.length > 0) {
    lines.push('undecodable records:');
    const reasons = new Map<string, string[]>();
    for (const u of stats.undecodable) {
      const where = `${u.file}${u.index >= 0 ? `#${u.index}` : ''}`;
      reasons.set(u.reason, [...(reasons.get(u.reason) ?? []), where]);
    }
    for (const [reason, places] of reasons) {
      lines.push(`  ${reason}: ${places.length} (${places.slice(0, 3).join(', ')}${places.length > 3 ? ', ...' : ''})`);
    }
  }
  return lines.join('\n');
}
