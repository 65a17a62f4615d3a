// Sizes of the alert packets in an Avro container file, as they would travel one per Kafka message:
// the encoded record, without the container's header and block framing.
import { readContainerRecords } from './container-records.ts';

export async function alertRecordSizes(file: string): Promise<number[]> {
  // Only the sizes are kept: the benchmarks read every night file at once.
  const sizes: number[] = [];
  await readContainerRecords(file, (record) => sizes.push(record.length));
  return sizes;
}

/** Min, median, 90th percentile and max of a list of sizes (bytes), for printing. */
export function sizeSummary(sizes: number[]): { count: number; min: number; median: number; p90: number; max: number } {
  const sorted = [...sizes].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { count: sorted.length, min: sorted[0] ?? 0, median: at(0.5), p90: at(0.9), max: sorted.at(-1) ?? 0 };
}
