// Where the writer schema of a Confluent-framed record (Rubin's Kafka messages: a zero byte, a 4-byte
// schema id, then the bare Avro record) comes from: the schema registry when one is configured (its ids
// are its own), else the Rubin schemas ANTARES ships, by the ids Rubin's registry gives them
// (rubin-schemas.ts: 900 is 9.0, 1000 is 10.0, 1100 is 11.0). ADR 0052.
import { notShippedReason, shippedRubinSchemaText } from './rubin-schemas.ts';

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
export const SHIPPED_RUBIN_SCHEMAS: SchemaSource = {
  schemaText(id) {
    const text = shippedRubinSchemaText(id);
    return text !== undefined ? Promise.resolve(text) : Promise.reject(new Error(notShippedReason(id)));
  },
};

/** The registry at `registryUrl` when one is configured, else the shipped Rubin schemas. */
export function alertSchemaSource(registryUrl?: string): SchemaSource {
  return registryUrl ? new SchemaRegistry(registryUrl) : SHIPPED_RUBIN_SCHEMAS;
}
