import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { beforeAll, describe, expect, it } from 'vitest';

import { ZTF_ALERT_SCHEMA } from '../simulate/ztf-schema.ts';
import { decodeAvroFile } from '../sources/alert-avro.ts';
import { readContainerHeader } from '../sources/avro-container.ts';
import { analyseSchema } from '../sources/ztf-packet.ts';
import { alertPropertyCatalog } from './catalog.ts';
import { ZTF_CANDIDATE_FIELDS, type ZtfFieldType } from './ztf-fields.ts';

// apps/pipeline/src/properties -> /work/shared/data (shared/ sits beside the repo root).
const DATA = fileURLToPath(new URL('../../../../../shared/data', import.meta.url));
const HAVE_DATA = existsSync(DATA);

const byName = new Map(ZTF_CANDIDATE_FIELDS.map((f) => [f.name, f]));

/** Avro primitive of a field type, ignoring null in unions; undefined for anything else. */
function avroPrimitive(type: unknown): string | undefined {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const nonNull = type.filter((t) => t !== 'null');
    return nonNull.length === 1 ? avroPrimitive(nonNull[0]) : undefined;
  }
  if (type && typeof type === 'object' && typeof (type as { type?: unknown }).type === 'string') {
    return avroPrimitive((type as { type: string }).type);
  }
  return undefined;
}

const AVRO_TO_FIELD: Record<string, ZtfFieldType> = { int: 'int', long: 'int', float: 'float', double: 'float', string: 'str' };

/** Our type for one decoded value; null/undefined carry no type information. */
function valueType(v: unknown): ZtfFieldType | 'number' | 'digits' | 'other' | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return Number.isInteger(v) ? 'number' : 'float';
  if (typeof v === 'string') return /^-?\d+$/.test(v) ? 'digits' : 'str';
  return 'other';
}

/** Whether a decoded value fits the declared type (a long above 2^53 is decoded as a decimal string). */
function fits(declared: ZtfFieldType, seen: NonNullable<ReturnType<typeof valueType>>): boolean {
  switch (seen) {
    case 'number':
      return declared === 'int' || declared === 'float'; // an integral float value is still a float
    case 'float':
      return declared === 'float';
    case 'digits':
      return declared === 'int' || declared === 'str'; // e.g. ssnamenr '12345' is a name
    case 'str':
      return declared === 'str';
    default:
      return seen === declared;
  }
}

/**
 * The one known type change: the 2016 commissioning-era schema wrote isdiffpos as an int 1/0,
 * later schemas as the string 't'/'f' (or '1'/'0'). The catalogue keeps 'str'.
 */
const LEGACY_INT = new Set(['isdiffpos']);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : /\.avro(\.gz)?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('ZTF_CANDIDATE_FIELDS', () => {
  it('has unique names', () => {
    const names = ZTF_CANDIDATE_FIELDS.map((f) => f.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it('has one short sentence ending with a period as doc for every field', () => {
    for (const f of ZTF_CANDIDATE_FIELDS) {
      expect(f.name, 'name').toMatch(/^[a-z][a-z0-9_]*$/);
      expect(['int', 'float', 'str'], f.name).toContain(f.type);
      expect(f.doc.trim().length, f.name).toBeGreaterThan(10);
      expect(f.doc, f.name).toMatch(/\.$/);
      expect(f.doc, f.name).not.toMatch(/[.!?]\s+[A-Z]/); // no second sentence
      expect(f.doc.length, f.name).toBeLessThanOrEqual(160);
    }
  });

  it('covers every candidate field of schema 4.02 with the Avro type mapped', () => {
    const candidate = ZTF_ALERT_SCHEMA.fields.find((f) => f.name === 'candidate')!.type as {
      fields: Array<{ name: string; type: unknown }>;
    };
    expect(candidate.fields.length).toBeGreaterThan(100);
    for (const f of candidate.fields) {
      expect(byName.get(f.name)?.type, f.name).toBe(AVRO_TO_FIELD[avroPrimitive(f.type)!]);
    }
  });

  it('registers into the alert property catalogue as ztf_<name>', () => {
    const catalog = new Map(alertPropertyCatalog().map((p) => [p.id, p]));
    expect(catalog.get('ztf_magpsf')).toMatchObject({ type: 'float', origin: 'ztf', description: byName.get('magpsf')!.doc });
    expect(catalog.get('ztf_candid')).toMatchObject({ type: 'int', es_mapping: 'long' });
    expect(catalog.get('ztf_isdiffpos')?.type).toBe('str');
    for (const f of ZTF_CANDIDATE_FIELDS) expect(catalog.has(`ztf_${f.name}`), f.name).toBe(true);
  });
});

describe.skipIf(!HAVE_DATA)('ZTF_CANDIDATE_FIELDS against the real packets under shared/data', () => {
  /** key -> kinds of non-null values seen, and the files it was seen in. */
  const seen = new Map<string, { kinds: Set<string>; files: Set<string>; values: Set<unknown> }>();
  /** key -> Avro primitive in each ZTF writer schema that has it. */
  const writerTypes = new Map<string, Set<string>>();
  let packets = 0;
  let ztfFiles = 0;

  beforeAll(async () => {
    for (const file of walk(DATA)) {
      let bytes = readFileSync(file);
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
      let schema: { fields?: Array<{ name: string; type: unknown }> };
      try {
        schema = JSON.parse(readContainerHeader(bytes).schema);
      } catch {
        continue; // not an Avro container (or unreadable): not a ZTF packet file
      }
      if ('reason' in analyseSchema(schema)) continue; // Rubin, ATLAS, ELAsTiCC ...
      ztfFiles++;
      const candField = schema.fields!.find((f) => f.name === 'candidate')!;
      const candType = (Array.isArray(candField.type) ? candField.type.find((t) => t !== 'null') : candField.type) as {
        fields: Array<{ name: string; type: unknown }>;
      };
      for (const f of candType.fields) {
        const set = writerTypes.get(f.name) ?? new Set<string>();
        set.add(avroPrimitive(f.type) ?? JSON.stringify(f.type));
        writerTypes.set(f.name, set);
      }
      for await (const rec of decodeAvroFile(file)) {
        expect('error' in rec ? rec.error : '', `${file} #${rec.index}`).toBe('');
        if (!('packet' in rec) || rec.packet.survey !== 'ztf') continue;
        packets++;
        for (const [key, value] of Object.entries(rec.packet.candidate)) {
          const entry = seen.get(key) ?? { kinds: new Set<string>(), files: new Set<string>(), values: new Set<unknown>() };
          const kind = valueType(value);
          if (kind) entry.kinds.add(kind);
          if (LEGACY_INT.has(key) && typeof value === 'number') entry.values.add(value);
          entry.files.add(file);
          seen.set(key, entry);
        }
      }
    }
  });

  it('decodes a real sample of ZTF packets, old and new schemas', () => {
    expect(ztfFiles).toBeGreaterThanOrEqual(10);
    expect(packets).toBeGreaterThanOrEqual(100);
    expect(seen.has('drb')).toBe(true); // 3.3+ packets
    expect(seen.has('luid')).toBe(true); // 2016 commissioning-era packet
  });

  it('has an entry for every candidate key of every ZTF packet', () => {
    const missing = [...seen.keys()].filter((k) => !byName.has(k));
    expect(missing).toEqual([]);
    for (const k of writerTypes.keys()) expect(byName.has(k), k).toBe(true);
  });

  it('declares types that agree with the decoded values', () => {
    const bad: string[] = [];
    for (const [key, { kinds, values }] of seen) {
      const declared = byName.get(key)?.type;
      if (!declared) continue;
      for (const kind of kinds) {
        if (kind === 'number' && declared === 'str' && LEGACY_INT.has(key)) continue;
        if (!fits(declared, kind as NonNullable<ReturnType<typeof valueType>>)) bad.push(`${key}: declared ${declared}, decoded ${kind}`);
      }
      if (LEGACY_INT.has(key)) for (const v of values) expect([0, 1], key).toContain(v);
    }
    expect(bad).toEqual([]);
  });

  it('declares types that agree with the writer schemas (also for fields whose values are all null)', () => {
    const bad: string[] = [];
    for (const [key, types] of writerTypes) {
      const declared = byName.get(key)?.type;
      for (const t of types) {
        if (t === 'int' && declared === 'str' && LEGACY_INT.has(key)) continue;
        if (AVRO_TO_FIELD[t] !== declared) bad.push(`${key}: declared ${declared}, writer schema ${t}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
