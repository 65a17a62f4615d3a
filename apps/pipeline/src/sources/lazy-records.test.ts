import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { expandInputs } from '../ingest/ingest-files.ts';
import { summaryOf } from '../stages/locus-properties.ts';
import { lsstAlertFromRow, lsstPacketRows, lsstStoredAlert } from '../stages/lsst-alerts.ts';
import { jsonbKeyOrder } from '../stages/prefixed-fields.ts';
import { decodeAvroFile } from './alert-avro.ts';
import { decompressBlock, iterateBlocks, readContainerHeader } from './avro-container.ts';
import { decimal, longKeyDecimal, longKeyOf, readLongKey } from './avro-long.ts';
import { buildType } from './avro-schema.ts';
import { fullRecord, lazyIdKey } from './lazy-records.ts';
import { fullHistory, lazyHistorySchema, LSST_DETECTION_KEY, LSST_FORCED_KEY, type LsstPacket } from './lsst-packet.ts';

// Rubin history decoded lazily (ADR 0037) must give exactly what decoding everything gives: the key
// fields at once, the rest on demand, and the same stored alerts. Checked on every Rubin packet of
// ../shared/data: Fink's 7.4 and 9.0 alerts (with Fink's own columns) and the schema's 9.0-11.0 samples.
const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');
const files = expandInputs([
  path.join(DATA, 'fink-broker/rubin_v7.4_fink'),
  path.join(DATA, 'fink-broker/rubin_v9.0_fink_subset'),
  path.join(DATA, 'lsst-alert_packet/schema'),
]).filter((f) => !/ztf/i.test(path.basename(f)));

/** Every record of a container file decoded with both types: all fields read, and history lazily. */
function bothWays(file: string): Array<{ eager: Record<string, unknown>; lazy: Record<string, unknown> }> {
  const bytes = readFileSync(file);
  const header = readContainerHeader(bytes);
  const schema = JSON.parse(header.schema) as unknown;
  const eagerType = buildType(schema);
  const lazyType = buildType(lazyHistorySchema(schema));
  const out = [];
  for (const block of iterateBlocks(bytes, header)) {
    if (!block.ok) throw new Error(block.error);
    const data = decompressBlock(header.codec, block.data);
    let eagerPos = 0;
    let lazyPos = 0;
    for (let i = 0; i < block.count; i++) {
      const eager = eagerType.decode(data, eagerPos);
      const lazy = lazyType.decode(data, lazyPos);
      expect(lazy.offset).toBe(eager.offset);
      eagerPos = eager.offset;
      lazyPos = lazy.offset;
      out.push({ eager: eager.value as Record<string, unknown>, lazy: lazy.value as Record<string, unknown> });
    }
  }
  return out;
}

describe('Rubin history decoded lazily', () => {
  it('reads each history record’s id, visit and time at once, and the whole record on demand', () => {
    let items = 0;
    let idKeys = 0;
    for (const file of files) {
      for (const { eager, lazy } of bothWays(file)) {
        for (const field of ['prvDiaSources', 'prvDiaForcedSources']) {
          const eagerItems = (eager[field] ?? []) as Array<Record<string, unknown>>;
          const lazyItems = (lazy[field] ?? []) as Array<Record<string, unknown>>;
          expect(lazyItems).toHaveLength(eagerItems.length);
          eagerItems.forEach((full, k) => {
            const keys = Object.keys(lazyItems[k]);
            expect(keys.length).toBeGreaterThanOrEqual(2);
            for (const key of keys) expect(lazyItems[k][key]).toEqual(full[key]);
            // A plain long id is read as its key, after its id space's prefix, without its digits; any other id as a value.
            const idField = field === 'prvDiaSources' ? 'diaSourceId' : 'diaForcedSourceId';
            const prefix = field === 'prvDiaSources' ? LSST_DETECTION_KEY : LSST_FORCED_KEY;
            const idKey = lazyIdKey(lazyItems[k]);
            if (idKey === undefined) expect(lazyItems[k][idField]).toEqual(full[idField]);
            else expect([idKey, longKeyDecimal(idKey, 1)]).toEqual([prefix + longKeyOf(full[idField]), String(full[idField])]);
            if (idKey !== undefined) idKeys++;
            expect(fullRecord(lazyItems[k])).toEqual(full);
            items++;
          });
        }
        expect(lazy.diaSource).toEqual(eager.diaSource);
      }
    }
    expect(items).toBeGreaterThan(100);
    // Both ways: the schema's samples have plain long ids, Fink's 7.4 alerts nullable ones.
    expect(idKeys).toBeGreaterThan(0);
    expect(items - idKeys).toBeGreaterThan(100);
  });

  it('gives each row the same alert id and key as the packet decoded in full does', async () => {
    let rows = 0;
    for (const file of files) {
      for await (const record of decodeAvroFile(file)) {
        if (!('packet' in record) || record.packet.survey !== 'lsst') continue;
        const idsAndKeys = (packet: LsstPacket) => lsstPacketRows(packet).map((r) => [r.alert_id, r.key]);
        const lazy = idsAndKeys(record.packet);
        expect(lazy).toEqual(idsAndKeys(fullHistory(record.packet)));
        expect(new Set(lazy.map(([, key]) => key)).size).toBe(new Set(lazy.map(([id]) => id)).size);
        rows += lazy.length;
      }
    }
    expect(rows).toBeGreaterThan(100);
  });

  it('keys a row whose id is not a 64-bit integer by its alert id, and leaves out rows without an id', () => {
    const source = (id: unknown, visit: number) => ({ diaSourceId: id, diaForcedSourceId: id, visit, midpointMjdTai: 61000 + visit });
    const packet = {
      survey: 'lsst',
      diaSourceId: '99999999999999999999', // beyond 64 bits
      diaSource: source('99999999999999999999', 0),
      prvDiaSources: [source(12.5, 1), source(null, 2), source(7, 3)],
      prvDiaForcedSources: [source(8, 4), source(undefined, 5)],
    } as unknown as LsstPacket;
    expect(lsstPacketRows(packet).map((r) => [r.alert_id, r.key])).toEqual([
      ['lsst:99999999999999999999', 'lsst:99999999999999999999'],
      ['lsst:12.5', 'lsst:12.5'],
      ['lsst:7', `\u0001${longKeyOf(7)}`],
      ['lsst_forced:8', `\u0002${longKeyOf(8)}`],
    ]);
  });

  it('stores a history row with the same properties and summary as the alert made from the whole row', async () => {
    let rows = 0;
    for (const file of files) {
      for await (const record of decodeAvroFile(file)) {
        if (!('packet' in record) || record.packet.survey !== 'lsst') continue;
        for (const row of lsstPacketRows(record.packet).slice(1)) {
          const alert = lsstAlertFromRow(row, 1_700_000_000);
          const stored = lsstStoredAlert(row, 1_700_000_000);
          const properties = JSON.parse(stored.writeProperties()) as Record<string, unknown>;
          expect(properties).toEqual(JSON.parse(JSON.stringify(alert.properties)));
          // In jsonb's key order, so that the database does not sort them again (prefixed-fields.ts).
          expect(Object.keys(properties)).toEqual(Object.keys(properties).sort(jsonbKeyOrder));
          expect(stored.summary()).toEqual(summaryOf(alert.properties));
          expect(stored.summary()).toBe(stored.summary()); // made once
          expect([stored.alert_id, stored.mjd]).toEqual([alert.alert_id, alert.mjd]);
          rows++;
        }
      }
    }
    expect(rows).toBeGreaterThan(100);
  });
});

describe('history records the compiled reader does not cover', () => {
  it('decodes items with nested records or arrays in full, as before', () => {
    const source = {
      type: 'record',
      name: 'diaSource',
      fields: [
        { name: 'flags', type: { type: 'enum', name: 'kind', symbols: ['a', 'b'] } },
        { name: 'diaSourceId', type: 'long' },
        { name: 'shape', type: ['null', { type: 'record', name: 'shape', fields: [{ name: 'xx', type: 'float' }] }] },
        { name: 'notes', type: { type: 'array', items: 'string' } },
        { name: 'midpointMjdTai', type: 'double' },
        { name: 'stamp', type: { type: 'fixed', name: 'stamp', size: 3 } },
        { name: 'visit', type: ['null', 'long'] },
      ],
    };
    const schema = {
      type: 'record',
      name: 'alert',
      fields: [
        { name: 'diaSource', type: source },
        { name: 'prvDiaSources', type: ['null', { type: 'array', items: 'diaSource' }] },
      ],
    };
    const item = (id: string, visit: number | null) => ({
      flags: 'b',
      diaSourceId: id,
      shape: visit === null ? null : { xx: 0.5 },
      notes: ['x', 'y\\z'],
      midpointMjdTai: 61000.25,
      stamp: Buffer.from([1, 2, 3]),
      visit,
    });
    const value = { diaSource: item('1', 7), prvDiaSources: [item('9007199254740993', 5), item('-3', null)] };
    const bytes = buildType(schema).toBuffer(value);
    const lazy = buildType(lazyHistorySchema(schema)).fromBuffer(bytes) as typeof value;
    const eager = buildType(schema).fromBuffer(bytes) as typeof value;
    expect(lazy.prvDiaSources).toEqual(eager.prvDiaSources);
    expect(lazy.prvDiaSources.map((i) => fullRecord(i))).toEqual(eager.prvDiaSources);
    expect(lazy.prvDiaSources[0].diaSourceId).toBe('9007199254740993');
  });
});

describe('64-bit longs', () => {
  const longType = buildType('long');
  const expected = (v: bigint) => (v >= -(2n ** 53n - 1n) && v <= 2n ** 53n - 1n ? Number(v) : v.toString());

  it('decode exactly at the edges of the double range and of 64 bits', () => {
    const edges = [
      0n,
      1n,
      -1n,
      2n ** 49n,
      2n ** 53n - 1n,
      2n ** 53n,
      -(2n ** 53n) + 1n,
      -(2n ** 53n),
      2n ** 56n,
      2n ** 63n - 1n,
      -(2n ** 63n),
    ];
    for (const v of edges) expect(longType.fromBuffer(longType.toBuffer(v.toString()))).toBe(expected(v));
  });

  it('decode exactly anywhere in the 64-bit range', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (v) => {
        expect(longType.fromBuffer(longType.toBuffer(v.toString()))).toBe(expected(v));
      }),
      { numRuns: 5000 },
    );
  });

  it('read as keys that are equal exactly when the longs are, from the bytes or from the value', () => {
    const edges = [0n, 1n, -1n, 2n ** 28n, 2n ** 53n, 2n ** 56n - 1n, 2n ** 56n, 2n ** 63n - 1n, -(2n ** 63n)];
    const check = (v: bigint) => {
      const bytes = longType.toBuffer(v.toString());
      const tap = { buf: bytes, pos: 0 };
      const key = readLongKey(tap);
      expect(tap.pos).toBe(bytes.length);
      expect(longKeyOf(v.toString())).toBe(key);
      if (Number.isSafeInteger(Number(v)) && BigInt(Number(v)) === v) expect(longKeyOf(Number(v))).toBe(key);
      // The digits come back from the key alone: no two longs share one.
      expect(longKeyDecimal(`x${key}`, 1)).toBe(v.toString());
      // Read with a prefix: the same key after it, and the tap moved as far.
      const prefixed = { buf: bytes, pos: 0 };
      expect(readLongKey(prefixed, 2)).toBe(`\u0002${key}`);
      expect(prefixed.pos).toBe(bytes.length);
    };
    edges.forEach(check);
    fc.assert(fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), check), { numRuns: 5000 });
    expect([longKeyOf(null), longKeyOf('12a'), longKeyOf(1.5), longKeyOf((2n ** 63n).toString())]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('write the decimal digits of two 28-bit-split halves', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 36 - 1 }), fc.integer({ min: 0, max: 2 ** 28 - 1 }), (hi, lo) => {
        expect(decimal(hi, lo)).toBe((BigInt(hi) * 2n ** 28n + BigInt(lo)).toString());
      }),
    );
  });
});
