// Sizes of the alert packets in an Avro container file, as they would travel one per Kafka message:
// the encoded record, without the container's header and block framing.
import { containerRecords } from './container-records.ts';

export async function alertRecordSizes(file: string): Promise<number[]> {
  return (await containerRecords(file)).records.map((record) => record.length);
}

/** Min, median, 90th percentile and max of a list of sizes (bytes), for printing. */
export function sizeSummary(sizes: number[]): { count: number; min: number; median: number; p90: number; max: number } {
  const sorted = [...sizes].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { count: sorted.length, min: sorted[0] ?? 0, median: at(0.5), p90: at(0.9), max: sorted.at(-1) ?? 0 };
}
