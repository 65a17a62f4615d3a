// Test support: Rubin alerts as Rubin's Kafka stream sends them (Confluent's wire format: a zero byte, the
// 4-byte schema id, then the bare Avro record), made from the records of an Avro container file.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import avro from 'avsc';

import { typeWithBigIntLongs } from '../simulate/ztf-schema.ts';
import { readContainerHeader } from '../sources/avro-container.ts';

/**
 * Every record of a container file, framed with `schemaId`. Each record is decoded with the file's writer
 * schema and encoded again, which gives its bytes as written (Avro's encoding of a value is unique).
 */
export async function confluentRecords(file: string, schemaId: number): Promise<Buffer[]> {
  const type = typeWithBigIntLongs(JSON.parse(readContainerHeader(readFileSync(file)).schema));
  const records: unknown[] = [];
  await new Promise((resolve, reject) => {
    avro
      .createFileDecoder(file, { parseHook: () => type })
      .on('data', (record: unknown) => records.push(record))
      .on('end', resolve)
      .on('error', reject);
  });
  return records.map((record) => confluentFrame(schemaId, type.toBuffer(record)));
}

/** One record's bytes in Confluent's wire format: a zero byte, the schema id (4 bytes, big-endian), the record. */
export function confluentFrame(schemaId: number, record: Buffer): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(schemaId, 1);
  return Buffer.concat([prefix, record]);
}

/**
 * Writes each framed record of `files` to a file of its own in `dir` (`<basename>-<n>.avro`, or
 * `.avro.gz` gzipped), as a consumer that saves Rubin's messages would; returns their paths in order.
 */
export async function writeConfluentFiles(files: string[], schemaId: number, dir: string, gzip = false): Promise<string[]> {
  const out: string[] = [];
  for (const file of files) {
    const records = await confluentRecords(file, schemaId);
    records.forEach((record, n) => {
      const name = path.join(dir, `${path.basename(file, '.avro')}-${String(n).padStart(5, '0')}.avro${gzip ? '.gz' : ''}`);
      writeFileSync(name, gzip ? gzipSync(record) : record);
      out.push(name);
    });
  }
  return out;
}
