// One Kafka message value as alert packets. Two layouts are in use: ZTF publishes each alert as a
// small Avro object container (the schema travels with it, possibly gzipped); Rubin publishes the
// Confluent wire format (a zero byte, a 4-byte schema id, then the bare Avro record), whose writer
// schema comes from a SchemaSource (schema-sources.ts). Alert files may hold either (alert-avro.ts).
import { isAvroContainer, isConfluentFramed, isGzip } from '../bytes.ts';
import { decodeAlertBytes, type DecodedRecord } from './alert-avro.ts';
import { type SchemaSource, SHIPPED_RUBIN_SCHEMAS } from './schema-sources.ts';

/** Decodes one message value into its alert packets (or the reasons it has none). */
export async function decodeAlertMessage(
  value: Buffer | null,
  label: string,
  schemas: SchemaSource = SHIPPED_RUBIN_SCHEMAS,
): Promise<DecodedRecord[]> {
  if (!value || value.length === 0) return [{ file: label, index: -1, error: 'empty message' }];
  if (!isAvroContainer(value) && !isGzip(value) && !isConfluentFramed(value))
    return [{ file: label, index: -1, error: 'neither an Avro container nor a Confluent-framed Avro record' }];
  const records: DecodedRecord[] = [];
  for await (const record of decodeAlertBytes(value, label, schemas)) records.push(record);
  return records;
}
