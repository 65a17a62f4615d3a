import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { alertPropertyCatalog } from './catalog.ts';
import { LSST_DIA_FORCED_SOURCE_FIELDS, LSST_DIA_SOURCE_FIELDS, type LsstField, type LsstFieldType } from './lsst-fields.ts';

// The official Rubin alert schemas, read at test time (apps/pipeline/src/properties -> /work/shared/data).
const SCHEMAS = fileURLToPath(new URL('../../../../../shared/data/lsst-alert_packet/schema', import.meta.url));
const VERSIONS = ['7/4', '9/0', '10/0', '11/0'];
const HAVE_SCHEMAS = VERSIONS.every((v) => existsSync(join(SCHEMAS, v)));

const AVRO_TO_FIELD: Record<string, LsstFieldType> = {
  int: 'int',
  long: 'int',
  float: 'float',
  double: 'float',
  string: 'str',
  boolean: 'bool',
};

/** Avro primitive of a field type, with nullable unions unwrapped; undefined for anything else. */
function avroPrimitive(type: unknown): string | undefined {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const nonNull = type.filter((t) => t !== 'null');
    return nonNull.length === 1 ? avroPrimitive(nonNull[0]) : undefined;
  }
  if (type && typeof type === 'object' && typeof (type as { type?: unknown }).type === 'string')
    return avroPrimitive((type as { type: string }).type);
  return undefined;
}

function schemaFields(version: string, record: 'diaSource' | 'diaForcedSource'): Array<{ name: string; type: unknown }> {
  const file = join(SCHEMAS, version, `lsst.v${version.replace('/', '_')}.${record}.avsc`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { fields: Array<{ name: string; type: unknown }> }).fields;
}

function checkDocs(fields: readonly LsstField[]): void {
  const names = fields.map((f) => f.name);
  expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  for (const f of fields) {
    expect(f.name).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
    expect(['int', 'float', 'str', 'bool'], f.name).toContain(f.type);
    expect(f.doc.trim().length, f.name).toBeGreaterThan(10);
    expect(f.doc, f.name).toMatch(/\.$/);
    expect(f.doc, f.name).not.toMatch(/[.!?]\s+[A-Z]/); // one sentence
    expect(f.doc.length, f.name).toBeLessThanOrEqual(160);
  }
}

describe('LSST_DIA_SOURCE_FIELDS and LSST_DIA_FORCED_SOURCE_FIELDS', () => {
  it('have unique names and one short sentence as doc', () => {
    checkDocs(LSST_DIA_SOURCE_FIELDS);
    checkDocs(LSST_DIA_FORCED_SOURCE_FIELDS);
  });

  it('register into the alert property catalogue with their prefixes and origin lsst', () => {
    const catalog = new Map(alertPropertyCatalog().map((p) => [p.id, p]));
    for (const f of LSST_DIA_SOURCE_FIELDS) {
      expect(catalog.get(`lsst_diaSource_${f.name}`), f.name).toMatchObject({ type: f.type, origin: 'lsst', description: f.doc });
    }
    for (const f of LSST_DIA_FORCED_SOURCE_FIELDS) {
      expect(catalog.get(`lsst_diaForcedSource_${f.name}`), f.name).toMatchObject({ type: f.type, origin: 'lsst', description: f.doc });
    }
    expect(catalog.get('lsst_diaSource_psfFlux')).toMatchObject({ type: 'float', es_mapping: 'double' });
    expect(catalog.get('lsst_diaSource_diaObjectId')).toMatchObject({ type: 'int', es_mapping: 'long' });
    expect(catalog.get('lsst_diaSource_isDipole')).toMatchObject({ type: 'bool', es_mapping: 'boolean' });
    expect(catalog.get('lsst_diaSource_band')).toMatchObject({ type: 'str', es_mapping: 'keyword' });
    expect(catalog.get('ant_survey')!.description).toMatch(/3 DECam, 4 LSST/);
    expect(catalog.get('ant_forced_photometry')).toMatchObject({ type: 'bool', origin: 'antares' });
    const ids = [...catalog.keys()];
    expect(new Set(ids).size).toBe(alertPropertyCatalog().length);
  });
});

describe.skipIf(!HAVE_SCHEMAS)('the Rubin fields against the official schemas 7.4, 9.0, 10.0 and 11.0', () => {
  for (const [record, fields] of [
    ['diaSource', LSST_DIA_SOURCE_FIELDS],
    ['diaForcedSource', LSST_DIA_FORCED_SOURCE_FIELDS],
  ] as const) {
    it(`defines every ${record} field of every version with its Avro type`, () => {
      const byName = new Map(fields.map((f) => [f.name, f]));
      const inSchemas = new Set<string>();
      const bad: string[] = [];
      for (const version of VERSIONS) {
        const schemaFieldList = schemaFields(version, record);
        expect(schemaFieldList.length, version).toBeGreaterThanOrEqual(record === 'diaSource' ? 90 : 10);
        for (const f of schemaFieldList) {
          inSchemas.add(f.name);
          const expected = AVRO_TO_FIELD[avroPrimitive(f.type) ?? ''];
          expect(expected, `${version} ${f.name}: unexpected Avro type ${JSON.stringify(f.type)}`).toBeDefined();
          const declared = byName.get(f.name)?.type;
          if (declared !== expected) bad.push(`${version} ${record}.${f.name}: declared ${declared ?? 'nothing'}, schema ${expected}`);
        }
      }
      expect(bad).toEqual([]);
      // Nothing made up: every definition is a field of at least one of the versions.
      expect(fields.map((f) => f.name).filter((n) => !inSchemas.has(n))).toEqual([]);
    });
  }

  it('writes the descriptions in its own words, not the schema doc strings', () => {
    const copied: string[] = [];
    for (const version of VERSIONS) {
      for (const [record, fields] of [
        ['diaSource', LSST_DIA_SOURCE_FIELDS],
        ['diaForcedSource', LSST_DIA_FORCED_SOURCE_FIELDS],
      ] as const) {
        const docs = new Map(fields.map((f) => [f.name, f.doc]));
        for (const f of schemaFields(version, record) as Array<{ name: string; doc?: string }>) {
          // "Uncertainty of x." and "Covariance of a and b." are bound to coincide; anything else should not.
          const mechanical = /^(Uncertainty|Covariance) of [\w ]+\.?$/.test(f.doc ?? '');
          if (!mechanical && f.doc && docs.get(f.name)?.trim() === f.doc.trim()) copied.push(`${version} ${record}.${f.name}`);
        }
      }
    }
    expect(copied).toEqual([]);
  });
});
