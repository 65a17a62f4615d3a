// Alert packets from the bytes of one Kafka message value or one alert file. Two layouts are in use:
// ZTF publishes each alert as a small Avro object container (the schema travels with it, possibly
// gzipped), and alert files are containers of many; Rubin publishes the Confluent wire format (a zero
// byte, a 4-byte schema id, then the bare Avro record), and a file may hold one such message as it
// came. A framed record's writer schema is fetched once per id from the schema registry when one is
// configured (its ids are its own); without one, Rubin's ids name the Rubin schemas ANTARES ships
// (rubin-schemas.ts: 900 is 9.0, 1000 is 10.0, 1100 is 11.0).
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';

import { isAvroContainer, isConfluentFramed, isGzip } from '../bytes.ts';
import { decodeAvroBuffer, type DecodedRecord, decodeSchemaless } from './alert-avro.ts';
import { notShippedReason, shippedRubinSchemaText } from './rubin-schemas.ts';

/** Where writer schemas of Confluent-framed records come from. */
export interface SchemaSource {
  schemaText(id: number): Promise<string>;
}

/** A Confluent schema registry (`GET {url}/schemas/ids/{id}` answers `{"schema": "<json>"}`), cached per id. */
export class SchemaRegistry implements SchemaSource {
  private readonly cache = new Map<number, Promise<string>>();
  constructor(private readonly url: string) {}

  schemaText(id: number): Promise<string> {
    let text = this.cache.get(id);
    if (!text) {
      text = this.fetchSchema(id);
      // A failed lookup (registry down) is retried with the next message, not remembered.
      text.catch(() => this.cache.delete(id));
      this.cache.set(id, text);
    }
    return text;
  }

  private async fetchSchema(id: number): Promise<string> {
    const response = await fetch(`${this.url.replace(/\/$/, '')}/schemas/ids/${id}`);
    if (!response.ok) throw new Error(`schema registry answered ${response.status} for schema id ${id}`);
    const body = (await response.json()) as { schema?: unknown };
    if (typeof body.schema !== 'string') throw new Error(`schema registry gave no schema for id ${id}`);
    return body.schema;
  }
}

/** The Rubin schemas ANTARES ships, by their ids in Rubin's registry. */
export const SHIPPED_RUBIN_SCHEMAS: SchemaSource & { knows(id: number): boolean } = {
  knows: (id) => shippedRubinSchemaText(id) !== undefined,
  schemaText(id) {
    const text = shippedRubinSchemaText(id);
    if (text !== undefined) return Promise.resolve(text);
    return Promise.reject(new Error(notShippedReason(id)));
  },
};

/** The registry at `registryUrl` when one is configured, else the shipped Rubin schemas. */
export function alertSchemaSource(registryUrl?: string): SchemaSource {
  return registryUrl ? new SchemaRegistry(registryUrl) : SHIPPED_RUBIN_SCHEMAS;
}

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

/**
 * Decodes an alert file (.avro or .avro.gz): an Avro container of any number of packets, or one
 * Confluent-framed record. An unreadable file yields a single error record (index -1).
 */
export async function* decodeAlertFile(path: string, schemas: SchemaSource = SHIPPED_RUBIN_SCHEMAS): AsyncGenerator<DecodedRecord> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    yield { file: path, index: -1, error: `cannot read file: ${(err as Error).message}` };
    return;
  }
  yield* decodeAlertBytes(bytes, path, schemas);
}

/** Gunzipped if need be, then a container's records one by one, or the framed record. */
async function* decodeAlertBytes(value: Buffer, label: string, schemas: SchemaSource): AsyncGenerator<DecodedRecord> {
  let bytes = value;
  if (isGzip(bytes)) {
    try {
      bytes = gunzipSync(bytes);
    } catch (err) {
      yield { file: label, index: -1, error: (err as Error).message };
      return;
    }
  }
  if (!isConfluentFramed(bytes)) {
    yield* decodeAvroBuffer(bytes, label);
    return;
  }
  const id = bytes.readUInt32BE(1);
  let schemaText: string;
  try {
    schemaText = await schemas.schemaText(id);
  } catch (error) {
    yield { file: label, index: -1, error: (error as Error).message };
    return;
  }
  yield decodeSchemaless(bytes.subarray(5), schemaText, label);
}
