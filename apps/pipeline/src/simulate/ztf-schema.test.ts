import { existsSync, readFileSync } from 'node:fs';

import avro from 'avsc';
import { describe, expect, it } from 'vitest';

import { bigIntLongType, typeWithBigIntLongs, ZTF_ALERT_SCHEMA, ztfAlertType } from './ztf-schema.ts';

// Reference copies of the published schemas and of a real alert (not part of the repo).
const SCHEMA_DIR = '/work/shared/data/ztf-avro-alert/schema/v4.02';
const REAL_401_ALERT = '/work/shared/data/alerce/ztf_lc_classifier_example/2454460970015010006.avro';

type Json = any;
type FieldSig = [name: string, type: string, hasNullDefault: boolean];

/** Every named record in a schema -> its fields as [name, type with records by name, default]. */
function records(schema: Json, namespace = ''): Map<string, FieldSig[]> {
  const out = new Map<string, FieldSig[]>();
  const fullName = (name: string, ns: string) => (name.includes('.') ? name : ns ? `${ns}.${name}` : name);
  const norm = (t: Json, ns: string): Json => {
    if (typeof t === 'string')
      return ['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'].includes(t) ? t : fullName(t, ns);
    if (Array.isArray(t)) return t.map((b) => norm(b, ns));
    if (t.type === 'record') {
      const name = fullName(t.name, t.namespace ?? ns);
      const inner = name.slice(0, name.lastIndexOf('.'));
      out.set(
        name,
        t.fields.map((f: Json): FieldSig => [f.name, JSON.stringify(norm(f.type, inner)), f.default === null]),
      );
      return name;
    }
    if (t.type === 'array') return { type: 'array', items: norm(t.items, ns) };
    return norm(t.type, ns);
  };
  norm(schema, namespace);
  return out;
}

function publishedSchema(): Json {
  // Load order from the ZTF repository: the alert schema references the others by name.
  const load = (f: string) => JSON.parse(readFileSync(`${SCHEMA_DIR}/${f}.avsc`, 'utf8'));
  const [cutout, candidate, prv, fp, alert] = ['cutout', 'candidate', 'prv_candidate', 'fp_hist', 'alert'].map(load);
  const inline = (t: Json): Json => {
    const byName: Record<string, Json> = {
      'ztf.alert.candidate': candidate,
      'ztf.alert.prv_candidate': prv,
      'ztf.alert.fp_hist': fp,
    };
    if (typeof t === 'string') return byName[t] ?? t;
    if (Array.isArray(t)) return t.map(inline);
    if (t.type === 'array') return { ...t, items: inline(t.items) };
    return t;
  };
  let cutoutSeen = false;
  const fields = alert.fields.map((f: Json) => {
    if (JSON.stringify(f.type).includes('ztf.alert.cutout') && !cutoutSeen) {
      cutoutSeen = true;
      return { ...f, type: ['null', cutout] };
    }
    return { ...f, type: inline(f.type) };
  });
  return { ...alert, fields };
}

describe.skipIf(!existsSync(SCHEMA_DIR))('ZTF 4.02 schema', () => {
  it('has exactly the published records, field names, types, order and null defaults', () => {
    const ours = records(ZTF_ALERT_SCHEMA);
    const theirs = records(publishedSchema());
    expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
    for (const [name, fields] of theirs) expect(ours.get(name), name).toEqual(fields);
    expect(ours.get('ztf.alert.candidate')).toHaveLength(103);
    expect(ours.get('ztf.alert.prv_candidate')).toHaveLength(57);
  });
});

describe.skipIf(!existsSync(REAL_401_ALERT))('against a real alert file', () => {
  it('matches the field names and types of the writer schema embedded in a real 4.01 packet', () => {
    // 4.01 and 4.02 differ only in the default of candidate.tooflag, so names/types must agree.
    const header = avro.extractFileHeader(REAL_401_ALERT, { decode: false });
    const embedded = JSON.parse(String(header?.meta['avro.schema']));
    const strip = (m: Map<string, FieldSig[]>) => new Map([...m].map(([k, v]) => [k, v.map(([n, t]) => [n, t])]));
    expect(strip(records(ZTF_ALERT_SCHEMA))).toEqual(strip(records(embedded)));
  });
});

describe('BigInt long type', () => {
  it('round-trips candids above 2^53 exactly', () => {
    const t = typeWithBigIntLongs('long');
    const candid = 3250162193315010007n;
    expect(t.fromBuffer(t.toBuffer(candid))).toBe(candid);
    expect(t.fromBuffer(t.toBuffer(-999))).toBe(-999n);
    expect(bigIntLongType.isValid(null)).toBe(false);
    expect(bigIntLongType.isValid(1.5)).toBe(false);
  });

  it('builds the full alert type', () => {
    expect(ztfAlertType().name).toBe('ztf.alert');
  });
});
