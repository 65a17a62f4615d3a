import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CopyChunks, copyClientOf } from './copy-in.ts';
import type { NewAlert } from './repositories/alerts.ts';
import type { JsonObject } from './schema.ts';
import { createTestDatabase, type TestDatabase } from './testing.ts';

// Large alert inserts in a transaction go in with COPY on a PostgreSQL server (ADR 0037) and with
// INSERT from one JSON document on PGlite: both must store exactly what they were given, skip rows
// stored already, and take properties as an object or as its JSON text.
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

/** Values COPY's text format must escape, and JSON's own escapes. */
const AWKWARD = ['back\\slash', 'tab\there', 'new\nline', 'carriage\rreturn', 'quote"d', 'ünïcødé ✓', '\\N', 'a\\tb'];

function alertNumber(i: number, locusId: string): NewAlert {
  const properties: JsonObject = {
    ant_mag: 18 + i / 1000,
    ant_mjd: 61000 + i / 100,
    text: AWKWARD[i % AWKWARD.length],
    nested: { list: [i, null, true], note: AWKWARD[(i + 3) % AWKWARD.length] },
    missing: null,
  };
  return {
    alert_id: `copy:${i}\\${i % 3 === 0 ? '\t' : ''}`,
    locus_id: locusId,
    survey: 'lsst',
    mjd: 61000 + i / 100 + 1e-9,
    // Every other row gives its properties as JSON text, as the pipeline does for history rows.
    properties: i % 2 === 0 ? properties : JSON.stringify(properties),
    // And every third its summary as a function, as the pipeline does for history rows.
    summary: i % 3 === 1 ? () => ({ ant_mag: 18 + i / 1000 }) : { ant_mag: 18 + i / 1000 },
  };
}

async function storedProperties(locusId: string): Promise<Map<string, { mjd: number; properties: JsonObject; summary: JsonObject }>> {
  const rows = await sql<{ alert_id: string; mjd: number; properties: JsonObject; summary: JsonObject }>`
    SELECT alert_id, mjd, properties, summary FROM alert WHERE locus_id = ${locusId}`.execute(database.db);
  return new Map(rows.rows.map((r) => [r.alert_id, r]));
}

describe('AlertRepository.insertMany in a transaction', () => {
  it('stores several hundred alerts exactly as given, whatever their text holds', async () => {
    const alerts = Array.from({ length: 450 }, (_, i) => alertNumber(i, 'ANT2026copy1'));
    const inserted = await database.repos.transaction((tx) => tx.alerts.insertMany(alerts));
    expect(inserted).toBe(450);
    const stored = await storedProperties('ANT2026copy1');
    expect(stored.size).toBe(450);
    for (const alert of alerts) {
      const row = stored.get(alert.alert_id)!;
      expect(row.mjd).toBe(alert.mjd);
      expect(row.properties).toEqual(typeof alert.properties === 'string' ? JSON.parse(alert.properties) : alert.properties);
      expect(row.summary).toEqual(typeof alert.summary === 'function' ? alert.summary() : alert.summary);
    }
  });

  it('skips the alerts stored already and stores the rest, in the same transaction', async () => {
    const alerts = Array.from({ length: 300 }, (_, i) => alertNumber(1000 + i, 'ANT2026copy2'));
    // Stored before the batch, as another worker could have: the batch's COPY meets them.
    expect(await database.repos.alerts.insertMany([alerts[17], alerts[250]])).toBe(2);
    const inserted = await database.repos.transaction(async (tx) => {
      const n = await tx.alerts.insertMany(alerts);
      // The transaction goes on after the conflict: its later statements still run.
      await tx.loci.insertMany([{ locus_id: 'ANT2026copy2', ra: 1, dec: 2, htm16: 3 }]);
      return n;
    });
    expect(inserted).toBe(298);
    expect((await storedProperties('ANT2026copy2')).size).toBe(300);
    expect(await database.repos.loci.findManyPositions(['ANT2026copy2'])).toHaveLength(1);
  });

  it('stores rows that span many chunks, and a row larger than a chunk, whatever their UTF-8 length', async () => {
    // Three-byte characters across every 1 MB chunk boundary, and one row of 2.4 MB of two-byte ones.
    const alerts = Array.from({ length: 220 }, (_, i) => {
      const alert = alertNumber(3000 + i, 'ANT2026copy4');
      const text = (i === 100 ? 'ü'.repeat(1_200_000) : '✓'.repeat(4000 + i)) + AWKWARD[i % AWKWARD.length];
      return { ...alert, properties: { ...(alert.properties as JsonObject), text } };
    });
    expect(await database.repos.transaction((tx) => tx.alerts.insertMany(alerts))).toBe(220);
    const stored = await storedProperties('ANT2026copy4');
    for (const alert of alerts) expect(stored.get(alert.alert_id)?.properties).toEqual(alert.properties);
  });

  it('finds the connection of a transaction for COPY on a PostgreSQL server, and none on PGlite', async () => {
    const client = await database.repos.transaction((tx) => copyClientOf(tx.db));
    expect(client !== undefined).toBe(database.kind === 'postgres');
  });

  it('stores nothing when the transaction is rolled back after the copy', async () => {
    const alerts = Array.from({ length: 250 }, (_, i) => alertNumber(2000 + i, 'ANT2026copy3'));
    await expect(
      database.repos.transaction(async (tx) => {
        await tx.alerts.insertMany(alerts);
        throw new Error('the batch fails after its alerts');
      }),
    ).rejects.toThrow('the batch fails');
    expect((await storedProperties('ANT2026copy3')).size).toBe(0);
  });
});

describe('migration 0018_alert_lz4', () => {
  it('compresses the properties of every alert partition with lz4 on a server, and leaves PGlite (no lz4) as it was', async () => {
    // A partition made after the migration (the month of MJD 62000) takes the parent's setting.
    await database.repos.alerts.insertMany([{ ...alertNumber(1, 'ANT2026lz4'), alert_id: 'lz4:1', mjd: 62000 }]);
    const rows = await sql<{ relname: string; compression: string }>`
      SELECT c.relname, a.attcompression AS compression FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE a.attname = 'properties' AND (c.relname = 'alert' OR c.relname LIKE 'alert\\_p%')`.execute(database.db);
    expect(rows.rows.map((r) => r.relname)).toContain('alert_p61980');
    for (const row of rows.rows) expect(row.compression, row.relname).toBe(database.kind === 'postgres' ? 'l' : '');
  });
});

describe('CopyChunks', () => {
  it('gives back exactly the UTF-8 of what was written, in chunks of about 1 MB, growing for a larger text', () => {
    const chunks = new CopyChunks();
    const texts = ['tab\tand ✓ ', 'ü'.repeat(700_000), 'plain', '✓'.repeat(500_000), '\n'];
    const taken: Buffer[] = [];
    for (const text of texts) {
      chunks.text(text);
      if (chunks.full) taken.push(chunks.take());
    }
    expect(chunks.empty).toBe(false);
    taken.push(chunks.take());
    expect(chunks.empty).toBe(true);
    expect(taken.length).toBe(3);
    expect(Buffer.concat(taken).toString('utf8')).toBe(texts.join(''));
  });

  it("writes float8 and jsonb fields of COPY's binary format: their length, then their bytes", () => {
    const chunks = new CopyChunks();
    chunks.float8(61000.125);
    chunks.jsonb('{"ü":1}');
    const bytes = chunks.take();
    expect(bytes.readInt32BE(0)).toBe(8);
    expect(bytes.readDoubleBE(4)).toBe(61000.125);
    // jsonb: the format's version (1), then the UTF-8 text; the length counts both.
    expect(bytes.readInt32BE(12)).toBe(1 + Buffer.byteLength('{"ü":1}'));
    expect(bytes[16]).toBe(1);
    expect(bytes.subarray(17).toString('utf8')).toBe('{"ü":1}');
  });
});
