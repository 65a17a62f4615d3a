import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { analyseLsstSchema } from './lsst-packet.ts';
import { rubinAlertSchema, rubinSchemaId, shippedRubinSchemaText } from './rubin-schemas.ts';

// The published 9.0, 10.0 and 11.0 schema files (not part of the repo), read at test time.
const schemaDir = (major: number) =>
  fileURLToPath(new URL(`../../../../../shared/data/lsst-alert_packet/schema/${major}/0`, import.meta.url));

type Json = any;
type FieldSig = [name: string, type: string, hasNullDefault: boolean];

const PRIMITIVES = ['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'];

/** Every named record of a schema -> its fields as [name, type with records by full name, null default]. */
function records(schema: Json): Map<string, FieldSig[]> {
  const out = new Map<string, FieldSig[]>();
  const full = (name: string, ns: string) => (name.includes('.') ? name : `${ns}.${name}`);
  const norm = (t: Json, ns: string): Json => {
    if (typeof t === 'string') return PRIMITIVES.includes(t) ? t : full(t, ns);
    if (Array.isArray(t)) return t.map((b) => norm(b, ns));
    if (t.type === 'record') {
      const name = full(t.name, t.namespace ?? ns);
      out.set(
        name,
        t.fields.map((f: Json): FieldSig => [f.name, JSON.stringify(norm(f.type, t.namespace ?? ns)), f.default === null]),
      );
      return name;
    }
    if (t.type === 'array') return { type: 'array', items: norm(t.items, ns) };
    return t.logicalType ? { type: t.type, logicalType: t.logicalType } : norm(t.type, ns);
  };
  norm(schema, schema.namespace ?? '');
  return out;
}

describe.each([
  { version: '9.0' as const, major: 9, orbits: 'MPCORB' },
  { version: '10.0' as const, major: 10, orbits: 'mpc_orbits' },
  { version: '11.0' as const, major: 11, orbits: 'mpc_orbits' },
])('Rubin $version schema', ({ version, major, orbits }) => {
  const ns = `lsst.v${major}_0`;
  it.skipIf(!existsSync(schemaDir(major)))('has exactly the published records, field names, types, order and null defaults', () => {
    const theirs = new Map<string, FieldSig[]>();
    for (const name of ['diaSource', 'diaForcedSource', 'diaObject', 'ssSource', orbits, 'alert']) {
      const schema = JSON.parse(readFileSync(join(schemaDir(major), `${ns}.${name}.avsc`), 'utf8'));
      for (const [k, v] of records(schema)) theirs.set(k, v);
    }
    const ours = records(rubinAlertSchema(version));
    expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
    for (const [name, fields] of theirs) expect(ours.get(name), name).toEqual(fields);
    expect(ours.get(`${ns}.diaSource`)).toHaveLength(98);
    expect(ours.get(`${ns}.diaForcedSource`)).toHaveLength(14);
  });

  it("is shipped under Rubin's registry id for it, and read by the ingestion as that version", () => {
    const id = major * 100;
    expect(rubinSchemaId(version)).toBe(id);
    const text = shippedRubinSchemaText(id);
    expect(JSON.parse(text!)).toEqual(rubinAlertSchema(version));
    expect(analyseLsstSchema(JSON.parse(text!))).toEqual({ schemaVersion: version, extraFields: [] });
  });
});

describe('shipped Rubin schemas', () => {
  it('know no other registry id', () => {
    for (const id of [0, 1, 9, 90, 701, 704, 901, 1001, 1200]) expect(shippedRubinSchemaText(id), String(id)).toBeUndefined();
  });
});
