import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { binaryCopyChunks } from './copy-in.ts';
import { CutoutPacks, CutoutPackUnavailable } from './cutout-packs.ts';
import { Repositories } from './repositories/index.ts';
import type { NewThumbnail } from './repositories/thumbnails.ts';
import { createTestDatabase, type TestDatabase } from './testing.ts';

// Many cutouts in a transaction go in with a binary COPY on a PostgreSQL server and with INSERT on
// PGlite: both must store the bytes exactly, and give a cutout stored already the locus given now.
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

function cutouts(prefix: string, count: number, locusId: string): NewThumbnail[] {
  const types = ['science', 'template', 'difference'] as const;
  return Array.from({ length: count }, (_, i) => ({
    filename: `${prefix}_${i}_${types[i % 3]}.fits.gz`,
    alert_id: `lsst:${prefix}ünï${Math.floor(i / 3)}`,
    locus_id: locusId,
    thumbnail_type: types[i % 3],
    // Sizes on both sides of a chunk's 256 KB, and views into larger buffers.
    cutout: i === 5 ? new Uint8Array(randomBytes(300_000)) : randomBytes(40 + (i % 7) * 4000).subarray(3),
  }));
}

async function stored(
  prefix: string,
): Promise<Map<string, { alert_id: string; locus_id: string; thumbnail_type: string; cutout: Uint8Array }>> {
  const rows = await sql<{ filename: string; alert_id: string; locus_id: string; thumbnail_type: string; cutout: Uint8Array }>`
    SELECT filename, alert_id, locus_id, thumbnail_type, cutout FROM alert_thumbnail WHERE filename LIKE ${`${prefix}\\_%`}`.execute(
    database.db,
  );
  return new Map(rows.rows.map((r) => [r.filename, r]));
}

describe('ThumbnailRepository.insertMany in a transaction', () => {
  it('stores many cutouts byte for byte', async () => {
    const given = cutouts('copyA', 90, 'ANT2026thumbA');
    await database.repos.transaction((tx) => tx.thumbnails.insertMany(given));
    const rows = await stored('copyA');
    expect(rows.size).toBe(90);
    for (const t of given) {
      const row = rows.get(t.filename)!;
      expect([row.alert_id, row.locus_id, row.thumbnail_type]).toEqual([t.alert_id, t.locus_id, t.thumbnail_type]);
      expect(Buffer.from(row.cutout).equals(Buffer.from(t.cutout))).toBe(true);
    }
  });

  it('gives cutouts stored already the locus given now and keeps their bytes, storing the rest', async () => {
    const first = cutouts('copyB', 60, 'ANT2026thumbB');
    await database.repos.thumbnails.insertMany(first.slice(0, 10));
    const again = cutouts('copyB', 60, 'ANT2026thumbC');
    await database.repos.transaction(async (tx) => {
      await tx.thumbnails.insertMany(again);
      // The transaction goes on after the copy met a stored cutout.
      await tx.loci.insertMany([{ locus_id: 'ANT2026thumbC', ra: 1, dec: 2, htm16: 3 }]);
    });
    const rows = await stored('copyB');
    expect(rows.size).toBe(60);
    for (const [i, t] of again.entries()) {
      expect(rows.get(t.filename)!.locus_id).toBe('ANT2026thumbC');
      const bytes = Buffer.from(rows.get(t.filename)!.cutout);
      expect(bytes.equals(Buffer.from(i < 10 ? first[i].cutout : t.cutout))).toBe(true);
    }
    expect(await database.repos.loci.findManyPositions(['ANT2026thumbC'])).toHaveLength(1);
  });
});

describe('binaryCopyChunks', () => {
  it("writes PostgreSQL's binary COPY format: signature, rows of length-prefixed fields, end marker", () => {
    const bytes = Buffer.concat([
      ...binaryCopyChunks([
        ['ab', new Uint8Array([1, 2, 3])],
        ['é', new Uint8Array()],
      ]),
    ]);
    const expected = Buffer.concat([
      Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'),
      Buffer.alloc(8),
      Buffer.from([0, 2, 0, 0, 0, 2, 0x61, 0x62, 0, 0, 0, 3, 1, 2, 3]),
      Buffer.from([0, 2, 0, 0, 0, 2, 0xc3, 0xa9, 0, 0, 0, 0]),
      Buffer.from([0xff, 0xff]),
    ]);
    expect(bytes.equals(expected)).toBe(true);
  });

  it('gives the same bytes in chunks of about 1 MB, with a field larger than a chunk and text of any UTF-8 length', () => {
    const rows = Array.from({ length: 400 }, (_, i) => [`cutout ✓ ${i}`, new Uint8Array(i === 200 ? 2_500_000 : 9000 + i).fill(i % 251)]);
    const chunks = [...binaryCopyChunks(rows)];
    expect(chunks.length).toBeGreaterThan(3);
    const expected: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)];
    for (const [text, bytes] of rows) {
      const t = Buffer.from(text as string);
      expected.push(Buffer.from([0, 2]), int32(t.length), t, int32(bytes.length), Buffer.from(bytes as Uint8Array));
    }
    expected.push(Buffer.from([0xff, 0xff]));
    expect(Buffer.concat(chunks).equals(Buffer.concat(expected))).toBe(true);
  });

  it('passes a cutout on as the same memory, not a copy, and copies small values into the chunk', () => {
    const block = Buffer.alloc(30_000, 5);
    const cutout = block.subarray(1000, 10_000);
    const small = new Uint8Array(100).fill(9);
    const chunks = [
      ...binaryCopyChunks([
        ['a.fits', cutout],
        ['b.fits', small],
      ]),
    ];
    const sameMemory = (c: Buffer, bytes: Uint8Array) => c.buffer === bytes.buffer && c.byteOffset === bytes.byteOffset;
    expect(chunks.filter((c) => sameMemory(c, cutout) && c.length === cutout.length)).toHaveLength(1);
    expect(chunks.some((c) => c.buffer === small.buffer)).toBe(false);
  });
});

function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}

describe('migration 0022_cutouts_lz4', () => {
  it('compresses a plain-FITS cutout with lz4 on a server and keeps a gzipped one as it came; PGlite (no lz4) keeps both as they came', async () => {
    // A FITS-like cutout: a header of blank-padded cards, then pixels of which a quarter of the bytes are noise.
    const header = Buffer.from('SIMPLE  =                    T'.padEnd(2880));
    const pixels = randomBytes(20_000).map((b, i) => (i % 8 < 6 ? 0x42 : b));
    const plain = Buffer.concat([header, pixels]);
    const gzipped = gzipSync(plain);
    await database.repos.thumbnails.insertMany([
      { filename: 'lz4_plain.fits', alert_id: 'lsst:lz4', locus_id: 'ANT2026lz4', thumbnail_type: 'science', cutout: plain },
      { filename: 'lz4_gzipped.fits.gz', alert_id: 'lsst:lz4', locus_id: 'ANT2026lz4', thumbnail_type: 'template', cutout: gzipped },
    ]);
    const rows = await sql<{ filename: string; stored: number; length: number; cutout: Uint8Array }>`
      SELECT filename, pg_column_size(cutout) AS stored, length(cutout) AS length, cutout FROM alert_thumbnail
      WHERE filename LIKE 'lz4\\_%' ORDER BY filename`.execute(database.db);
    const [gz, fits] = rows.rows;
    expect(Buffer.from(fits.cutout).equals(plain)).toBe(true);
    expect(Buffer.from(gz.cutout).equals(gzipped)).toBe(true);
    expect(gz.stored).toBeGreaterThanOrEqual(gz.length);
    if (database.kind === 'postgres') expect(fits.stored).toBeLessThan(0.7 * fits.length);
    else expect(fits.stored).toBeGreaterThanOrEqual(fits.length);
  });
});

describe('cutouts in packs outside the database (migration 0023, ADR 0051)', () => {
  it('keeps only where each cutout lies, reads it back, and leaves a cutout stored already as it was', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'antares-thumb-packs-'));
    try {
      const packed = new Repositories(database.db, database.kind, new CutoutPacks(dir));
      const before = cutouts('packA', 3, 'ANT2026packA');
      await database.repos.thumbnails.insertMany(before.slice(0, 1));
      const given = cutouts('packA', 40, 'ANT2026packB');
      await packed.transaction((tx) => tx.thumbnails.insertMany(given));
      const rows = await sql<{ filename: string; locus_id: string; cutout: Uint8Array | null; pack: string | null }>`
        SELECT filename, locus_id, cutout, pack FROM alert_thumbnail WHERE filename LIKE 'packA\\_%'`.execute(database.db);
      expect(rows.rows).toHaveLength(40);
      for (const row of rows.rows) {
        expect(row.locus_id).toBe('ANT2026packB');
        // The first was stored in the database before packs were configured: it keeps its bytes there.
        expect(row.cutout === null).toBe(row.filename !== given[0]!.filename);
        expect(row.pack === null).toBe(row.filename === given[0]!.filename);
      }
      for (const [i, t] of given.entries()) {
        const expected = Buffer.from(i === 0 ? before[0]!.cutout : t.cutout);
        const image = await packed.thumbnails.findImage(t.filename);
        expect(image?.png).toBeNull();
        expect(image && !image.png && Buffer.from(image.cutout).equals(expected)).toBe(true);
      }
      const science = given[3]!;
      expect(Buffer.from((await packed.thumbnails.findCutout(science.alert_id, 'science'))!).equals(Buffer.from(science.cutout))).toBe(
        true,
      );
      // Repositories without the folder (ANTARES_CUTOUT_DIR unset) cannot read it, and say so.
      await expect(database.repos.thumbnails.findCutout(science.alert_id, 'science')).rejects.toThrow(
        new CutoutPackUnavailable('it lies in a cutout pack and ANTARES_CUTOUT_DIR is not set on this server'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a row with neither bytes nor a pack', async () => {
    await expect(
      sql`INSERT INTO alert_thumbnail (filename, alert_id, locus_id, thumbnail_type) VALUES ('none.fits', 'lsst:none', 'ANT2026none', 'science')`.execute(
        database.db,
      ),
    ).rejects.toThrow(/alert_thumbnail_bytes_or_pack/);
  });
});
