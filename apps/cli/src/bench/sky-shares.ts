import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';

import { OcfWriter, readContainerRecords, typeWithBigIntLongs } from '@antares/pipeline/simulate';

/**
 * Each night file's packets dealt out by sky: share w of N holds the packets whose right ascension lies
 * in [360 w / N, 360 (w + 1) / N) degrees. Returns, for each share, its night files in night order: what
 * one of N ingest workers takes when each consumes its own part of the sky (ADR 0035's case), where
 * alternate night files give every worker the same objects at once. The files are written once, in a
 * folder beside the night files' (`<folder>-sky<N>`), and reused; the records are copied byte for byte.
 */
export async function skyShareFiles(files: string[], shares: number): Promise<string[][]> {
  const shareFile = (file: string, share: number) =>
    path.join(`${path.dirname(file)}-sky${shares}`, `${path.basename(file, '.avro')}_sky${share + 1}of${shares}.avro`);
  for (const file of files) {
    const targets = Array.from({ length: shares }, (_, share) => shareFile(file, share));
    if (targets.every((target) => existsSync(target))) continue;
    // Written under other names, then renamed: an interrupted split is never taken for a finished one.
    await splitFile(file, shares, (share) => `${targets[share]}.partial`);
    for (const target of targets) renameSync(`${target}.partial`, target);
  }
  return Array.from({ length: shares }, (_, share) => files.map((file) => shareFile(file, share)));
}

async function splitFile(file: string, shares: number, target: (share: number) => string): Promise<void> {
  const records: Buffer[] = [];
  const { schemaText, sync } = await readContainerRecords(file, (record) => records.push(record));
  const type = typeWithBigIntLongs(JSON.parse(schemaText));
  mkdirSync(path.dirname(target(0)), { recursive: true });
  const writers = await Promise.all(
    Array.from({ length: shares }, (_, share) => OcfWriter.create(target(share), schemaText, sync, 'null')),
  );
  try {
    for (const record of records) await writers[shareOf(rightAscension(type.fromBuffer(record)), shares)].append(record);
  } finally {
    for (const writer of writers) await writer.close();
  }
}

/** A packet's right ascension: its triggering source's (Rubin's diaSource, ZTF's candidate). */
function rightAscension(packet: unknown): number {
  const { diaSource, candidate } = packet as { diaSource?: { ra?: unknown }; candidate?: { ra?: unknown } };
  const ra = (diaSource ?? candidate)?.ra;
  return typeof ra === 'number' && Number.isFinite(ra) ? ra : 0;
}

export function shareOf(ra: number, shares: number): number {
  const wrapped = ((ra % 360) + 360) % 360;
  return Math.min(shares - 1, Math.floor((wrapped / 360) * shares));
}
