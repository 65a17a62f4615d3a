// One Kafka message value as alert packets. Two layouts are in use: ZTF publishes each alert as a
// small Avro object container (the schema travels with it, possibly gzipped); Rubin publishes the
// Confluent wire format (a zero byte, a 4-byte schema id, then the bare Avro record) whose writer
// schema is fetched once per id from a schema registry.
import { isAvroContainer, isGzip } from '../bytes.ts';
import { decodeAvroBuffer, type DecodedRecord, decodeSchemaless } from './alert-avro.ts';

/** Where writer schemas of Confluent-framed messages come from. */
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

/** Decodes one message value into its alert packets (or the reasons it has none). */
export async function decodeAlertMessage(value: Buffer | null, label: string, schemas?: SchemaSource): Promise<DecodedRecord[]> {
  if (!value || value.length === 0) return [{ file: label, index: -1, error: 'empty message' }];
  if (isAvroContainer(value) || isGzip(value)) return [...decodeAvroBuffer(value, label)];
  if (value[0] === 0 && value.length > 5) {
    const id = value.readUInt32BE(1);
    if (!schemas)
      return [
        {
          file: label,
          index: -1,
          error: `Confluent-framed message (schema id ${id}) but no schema registry is configured (ANTARES_SCHEMA_REGISTRY_URL)`,
        },
      ];
    let schemaText: string;
    try {
      schemaText = await schemas.schemaText(id);
    } catch (error) {
      return [{ file: label, index: -1, error: (error as Error).message }];
    }
    return [decodeSchemaless(value.subarray(5), schemaText, label)];
  }
  return [{ file: label, index: -1, error: 'neither an Avro container nor a Confluent-framed Avro record' }];
}
