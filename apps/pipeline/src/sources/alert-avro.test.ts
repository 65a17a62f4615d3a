import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync, gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { renderCutoutPng } from '../fits/render-png.ts';
import { decodeAvroBuffer, decodeAvroFile, type DecodedRecord, type ZtfPacket } from './alert-avro.ts';
import { decompressBlock, iterateBlocks, readContainerHeader } from './avro-container.ts';
import { buildType } from './avro-schema.ts';

// apps/pipeline/src/sources -> /work/shared/data (shared/ sits beside the repo root).
const DATA = fileURLToPath(new URL('../../../../../shared/data', import.meta.url));
const HAVE_DATA = existsSync(join(DATA, 'INDEX_alerts.csv'));

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

async function collect(gen: AsyncIterable<DecodedRecord> | Iterable<DecodedRecord>): Promise<DecodedRecord[]> {
  const out: DecodedRecord[] = [];
  for await (const r of gen) out.push(r);
  return out;
}

const packets = (rs: DecodedRecord[]) => rs.flatMap((r) => ('packet' in r && r.packet.survey === 'ztf' ? [r.packet] : []));
const errors = (rs: DecodedRecord[]) => rs.flatMap((r) => ('error' in r ? [r] : []));

/** Minimal OCF writer for tests: re-packs decoded block payloads with another codec. */
function writeContainer(schema: string, codec: string, blocks: Array<{ count: number; data: Buffer }>): Buffer {
  const varint = (n: number) => {
    let z = n >= 0 ? n * 2 : -n * 2 - 1;
    const b: number[] = [];
    do {
      let x = z % 128;
      z = Math.floor(z / 128);
      if (z) x |= 0x80;
      b.push(x);
    } while (z);
    return Buffer.from(b);
  };
  const str = (s: string | Buffer) => {
    const b = Buffer.isBuffer(s) ? s : Buffer.from(s);
    return Buffer.concat([varint(b.length), b]);
  };
  const sync = Buffer.alloc(16, 0xab);
  const parts: Buffer[] = [
    Buffer.from('Obj\x01', 'latin1'),
    varint(2),
    str('avro.schema'),
    str(schema),
    str('avro.codec'),
    str(codec),
    varint(0),
    sync,
  ];
  for (const b of blocks) {
    const payload = codec === 'deflate' ? deflateRawSync(b.data) : b.data;
    parts.push(varint(b.count), varint(payload.length), payload, sync);
  }
  return Buffer.concat(parts);
}

describe('exact longs', () => {
  it('keeps safe integers as numbers and larger ones as exact decimal strings', () => {
    const t = buildType('long');
    const rt = (v: number | string) => t.fromBuffer(t.toBuffer(v));
    expect(rt(0)).toBe(0);
    expect(rt(-1)).toBe(-1);
    expect(rt(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(rt(Number.MIN_SAFE_INTEGER)).toBe(Number.MIN_SAFE_INTEGER);
    expect(rt('9007199254740992')).toBe('9007199254740992');
    expect(rt('1788116342915015046')).toBe('1788116342915015046');
    expect(rt('9223372036854775807')).toBe('9223372036854775807');
    expect(rt('-9223372036854775808')).toBe('-9223372036854775808');
  });

  it('also applies to logical-type longs (Spark timestamp-micros)', () => {
    const t = buildType({
      type: 'record',
      name: 'r',
      fields: [{ name: 'ts', type: [{ type: 'long', logicalType: 'timestamp-micros' }, 'null'] }],
    });
    // union branch 0, then the long (avsc cannot pick a union branch for a string-valued long)
    const buf = Buffer.concat([Buffer.from([0]), buildType('long').toBuffer('1234567890123456789')]);
    expect((t.fromBuffer(buf) as { ts: unknown }).ts).toBe('1234567890123456789');
  });

  it('parses schemas whose union defaults avsc would reject, without reordering branches', () => {
    const schema = { type: 'record', name: 'a', fields: [{ name: 'x', type: ['long', 'null'], default: null }] };
    const t = buildType(schema);
    // branch 0 is long: the encoding is [0, zigzag(5)]
    expect(t.fromBuffer(Buffer.from([0, 10]))).toEqual(expect.objectContaining({ x: 5 }));
  });
});

describe('bytes', () => {
  it('decode as views of the encoded bytes, and a length past the end as a truncated value', () => {
    const t = buildType({
      type: 'record',
      name: 'r',
      fields: [
        { name: 'b', type: ['null', 'bytes'] },
        { name: 'c', type: 'bytes' },
      ],
    });
    const buf = t.toBuffer({ b: Buffer.from([1, 2, 3]), c: Buffer.alloc(0) });
    const value = t.fromBuffer(buf) as { b: Buffer; c: Buffer };
    expect([...value.b]).toEqual([1, 2, 3]);
    expect(value.b.buffer).toBe(buf.buffer); // a view, not a copy
    expect(value.c.length).toBe(0);
    // Branch 1, then a length of 4 with only 3 bytes after it.
    expect(() => t.fromBuffer(Buffer.from([2, 8, 1, 2, 3]))).toThrow(/truncated/);
    expect(() => t.fromBuffer(Buffer.from([2, 1]))).toThrow(); // a negative length
  });
});

describe('decodeAvroBuffer robustness', () => {
  it('turns random bytes into one file-level error', async () => {
    const junk = Buffer.alloc(4096);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 2654435761) >>> 24;
    const rs = [...decodeAvroBuffer(junk, 'junk.avro')];
    expect(rs).toEqual([{ file: 'junk.avro', index: -1, error: expect.stringMatching(/not an Avro Object Container File/) }]);
    expect([...decodeAvroBuffer(Buffer.alloc(0), 'empty')][0]).toMatchObject({ index: -1 });
    expect([...decodeAvroBuffer(gzipSync(junk), 'junk.avro.gz')][0]).toMatchObject({ index: -1 });
    expect([...decodeAvroBuffer(Buffer.from([0x1f, 0x8b, 1, 2]), 'bad.gz')][0]).toMatchObject({ index: -1 });
    const missing = await collect(decodeAvroFile('/nonexistent/x.avro'));
    expect(missing).toEqual([{ file: '/nonexistent/x.avro', index: -1, error: expect.stringMatching(/cannot read file/) }]);
  });

  describe.skipIf(!HAVE_DATA)('on real files', () => {
    const multi = join(DATA, 'fink-client/ztf_v3.3/avro_multi_alerts.avro'); // null codec, 6 blocks, 11 alerts
    const spark = join(DATA, 'fink-client/ztf_v3.3_spark_snappy/part-00001-0f70696a-f8dd-40ab-89e7-e7f64c104e25-c000.avro');

    it('reports a truncated file and keeps the complete blocks', () => {
      const bytes = readFileSync(multi);
      const rs = [...decodeAvroBuffer(bytes.subarray(0, bytes.length - 1000), 'cut.avro')];
      expect(packets(rs)).toHaveLength(10);
      expect(errors(rs)).toEqual([{ file: 'cut.avro', index: 10, error: expect.stringMatching(/truncated block/) }]);
      // cut inside the header
      expect([...decodeAvroBuffer(bytes.subarray(0, 500), 'head.avro')][0]).toMatchObject({
        index: -1,
        error: expect.stringMatching(/header/),
      });
    });

    it('skips a snappy block with a bad CRC and decodes the following blocks', () => {
      const bytes = Buffer.from(readFileSync(spark));
      const header = readContainerHeader(bytes);
      const third = [...iterateBlocks(bytes, header)][2];
      bytes[third.offset + 5000] ^= 0x55;
      const rs = [...decodeAvroBuffer(bytes, 'crc.avro')];
      expect(errors(rs)).toEqual([
        { file: 'crc.avro', index: 4, error: expect.stringMatching(/block at byte 195083: .*(CRC32|snappy).*\(2 records skipped\)/i) },
      ]);
      expect(packets(rs)).toHaveLength(52);
      expect(rs.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, ...Array.from({ length: 48 }, (_, i) => i + 6)]);
    });

    it('resynchronises on the next sync marker after broken framing', () => {
      const bytes = Buffer.from(readFileSync(multi));
      const header = readContainerHeader(bytes);
      const blocks = [...iterateBlocks(bytes, header)];
      // damage the sync marker that closes block 1: blocks 1 and 2 are lost, 3..5 decode
      const b1 = blocks[1];
      if (!b1.ok) throw new Error('unexpected');
      const syncAt = b1.data.byteOffset - bytes.byteOffset + b1.data.length;
      bytes[syncAt] ^= 0xff;
      const rs = [...decodeAvroBuffer(bytes, 'sync.avro')];
      expect(errors(rs)).toHaveLength(1);
      expect(errors(rs)[0].error).toMatch(/sync marker mismatch/);
      expect(packets(rs).map((p) => p.objectId)).toEqual([
        'ZTF19acmbvwi',
        'ZTF19acmbuei',
        'ZTF18aaacpxm',
        'ZTF18aaeuwil',
        'ZTF19aaflqpu',
        'ZTF18acefvuh',
        'ZTF18aabjigr',
      ]);
    });

    it('reports an undecodable record and keeps decoding later blocks', () => {
      const bytes = Buffer.from(readFileSync(multi));
      const header = readContainerHeader(bytes);
      const first = [...iterateBlocks(bytes, header)][0];
      if (!first.ok) throw new Error('unexpected');
      first.data.fill(0xff, 0, 12); // garbage union index / varints at the start of record 0
      const rs = [...decodeAvroBuffer(bytes, 'rec.avro')];
      expect(errors(rs)).toEqual([
        {
          file: 'rec.avro',
          index: 0,
          error: expect.stringMatching(/cannot decode record 0 of block .*1 following records of the block skipped/),
        },
      ]);
      expect(packets(rs)).toHaveLength(9);
      expect(rs[1].index).toBe(2);
    });

    it('survives garbage after a valid header without hanging', () => {
      const bytes = readFileSync(multi);
      const header = readContainerHeader(bytes);
      const junk = Buffer.alloc(200_000);
      for (let i = 0; i < junk.length; i++) junk[i] = (i * 2654435761 + 12345) >>> 24;
      const rs = [...decodeAvroBuffer(Buffer.concat([bytes.subarray(0, header.dataStart), junk]), 'junk-body.avro')];
      expect(packets(rs)).toHaveLength(0);
      expect(errors(rs).length).toBeGreaterThan(0);
    });

    it('decodes the deflate codec and gzipped containers identically', () => {
      const bytes = readFileSync(multi);
      const header = readContainerHeader(bytes);
      const blocks = [...iterateBlocks(bytes, header)].map((b) => {
        if (!b.ok) throw new Error(b.error);
        return { count: b.count, data: decompressBlock(header.codec, b.data) };
      });
      const reference = packets([...decodeAvroBuffer(bytes, 'null')]);
      const deflated = packets([...decodeAvroBuffer(writeContainer(header.schema, 'deflate', blocks), 'deflate')]);
      const gzipped = packets([...decodeAvroBuffer(gzipSync(bytes), 'gz')]);
      const key = (p: ZtfPacket) => `${p.objectId}/${p.candid}/${p.prvCandidates.length}/${p.cutouts.science?.length}`;
      expect(reference).toHaveLength(11);
      expect(deflated.map(key)).toEqual(reference.map(key));
      expect(gzipped.map(key)).toEqual(reference.map(key));
      const unknown = [...decodeAvroBuffer(writeContainer(header.schema, 'zstandard', blocks), 'zstd')];
      expect(errors(unknown)[0].error).toMatch(/unsupported Avro codec "zstandard"/);
    });
  });
});

interface IndexRow {
  survey: string;
  file: string;
  record: number;
  objectId: string;
  candid: string;
  schemavsn: string;
  jd: number;
  ra: number;
  dec: number;
  magpsf: number;
  nPrv: number;
  hasCutouts: boolean;
}

function readIndex(): IndexRow[] {
  const [head, ...lines] = readFileSync(join(DATA, 'INDEX_alerts.csv'), 'utf8').trim().split(/\r?\n/); // CRLF file
  const cols = head.split(',');
  const at = (name: string) => cols.indexOf(name);
  return lines.map((line) => {
    const c = line.split(',');
    return {
      survey: c[at('survey')],
      file: c[at('file')],
      record: Number(c[at('record')]),
      objectId: c[at('objectId')],
      candid: c[at('candid')],
      schemavsn: c[at('schemavsn')],
      jd: Number(c[at('jd')]),
      ra: Number(c[at('ra')]),
      dec: Number(c[at('dec')]),
      magpsf: Number(c[at('magpsf_or_psfFlux')]),
      nPrv: Number(c[at('n_prv')]),
      hasCutouts: c[at('has_cutouts')] === '1',
    };
  });
}

describe.skipIf(!HAVE_DATA)('real alert data under shared/data', () => {
  it('decodes every ZTF record of INDEX_alerts.csv exactly, with renderable cutouts', async () => {
    const rows = readIndex().filter((r) => r.survey === 'ztf');
    expect(rows.length).toBeGreaterThan(290);
    const byFile = new Map<string, IndexRow[]>();
    for (const r of rows) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
    let rendered = 0;
    const jpeg: string[] = [];
    for (const [file, fileRows] of byFile) {
      const decoded = await collect(decodeAvroFile(join(DATA, file)));
      for (const row of fileRows) {
        const rec = decoded.find((d) => d.index === row.record);
        const where = `${file}#${row.record}`;
        if (!rec || !('packet' in rec)) throw new Error(`${where}: ${rec && 'error' in rec ? rec.error : 'missing'}`);
        const p = rec.packet;
        if (p.survey !== 'ztf') throw new Error(`${where}: decoded as ${p.survey}`);
        expect(p.objectId, where).toBe(row.objectId);
        // The index leaves candid empty for ALeRCE's Spark packets, which have no top-level candid:
        // the decoder then takes candidate.candid (checked against the index just below otherwise).
        expect(p.candid, where).toBe(row.candid || String(p.candidate.candid));
        expect(p.candid, where).toMatch(/^-?\d+$/);
        expect(p.schemavsn, where).toBe(row.schemavsn);
        expect(p.candidate.jd as number, where).toBeCloseTo(row.jd, 5);
        expect(p.candidate.ra as number, where).toBeCloseTo(row.ra, 6);
        expect(p.candidate.dec as number, where).toBeCloseTo(row.dec, 6);
        expect(p.candidate.magpsf as number, where).toBeCloseTo(row.magpsf, 3);
        // candidate.candid is the same id (string when > 2^53), never a rounded double
        expect(String(p.candidate.candid), where).toBe(p.candid);
        expect(p.prvCandidates, where).toHaveLength(row.nPrv);
        if (row.hasCutouts) {
          for (const kind of ['science', 'template', 'difference'] as const) {
            const bytes = p.cutouts[kind];
            expect(bytes, `${where} ${kind}`).toBeInstanceOf(Uint8Array);
            // The 2016 commissioning packet stores JPEG stamps: nothing FITS to render there.
            if (bytes![0] === 0xff && bytes![1] === 0xd8) {
              jpeg.push(`${where} ${kind}`);
              expect(() => renderCutoutPng(bytes!)).toThrow(/JPEG/);
              continue;
            }
            const png = renderCutoutPng(bytes!);
            expect(png.readUInt32BE(16), where).toBeGreaterThan(0); // IHDR width
            rendered++;
          }
        }
      }
    }
    console.log(`ZTF index rows checked: ${rows.length}; cutouts rendered: ${rendered}; JPEG cutouts (not FITS): ${jpeg.length}`);
    expect(rendered + jpeg.length).toBe(3 * rows.filter((r) => r.hasCutouts).length);
    expect(rendered).toBeGreaterThan(800);
    expect(jpeg.every((j) => j.startsWith('skyportal/ztf_alerts/87704463155000.avro'))).toBe(true);
  }, 60_000);

  it('decodes or cleanly rejects every Avro file, per folder', async () => {
    const files = walk(DATA).filter((f) => /\.avro(\.gz)?$/.test(f));
    const perFolder = new Map<string, { decoded: number; errored: number; reasons: Set<string> }>();
    for (const f of files) {
      const folder = relative(DATA, dirname(f));
      const s = perFolder.get(folder) ?? { decoded: 0, errored: 0, reasons: new Set<string>() };
      perFolder.set(folder, s);
      for await (const r of decodeAvroFile(f)) {
        if ('packet' in r) s.decoded++;
        else {
          s.errored++;
          s.reasons.add(r.error);
        }
      }
    }
    const table = [...perFolder].map(([folder, s]) => ({
      folder,
      decoded: s.decoded,
      errored: s.errored,
      reasons: [...s.reasons].join(' | '),
    }));
    console.table(table);
    // Every ZTF and Rubin record of the index decodes, except the 7.4 schema's fake sample (a Unix time
    // where the MJD belongs); everything else is another survey's, and said so.
    const index = readIndex();
    const expected = index.filter((r) => r.survey === 'ztf' || r.survey === 'rubin' || r.survey === 'rubin-fake').length - 1;
    expect(table.reduce((n, t) => n + t.decoded, 0)).toBe(expected);
    for (const t of table) {
      if (!t.errored) continue;
      if (t.folder === 'lsst-alert_packet/schema/7/4/sample_data')
        expect(t.reasons).toMatch(/^Rubin alert lsst:\d+ has midpointMjdTai 1480360995, which is not an MJD$/);
      else
        expect(t.reasons, t.folder).toMatch(/^not a ZTF or Rubin alert packet \(schema [^)]+\)( \| not a ZTF or Rubin alert packet.*)?$/);
    }
  }, 60_000);

  it('decodes fast enough for the pipeline (prints alerts/s)', () => {
    const file = join(DATA, 'fink-client/ztf_v3.3_spark_snappy/part-00001-0f70696a-f8dd-40ab-89e7-e7f64c104e25-c000.avro');
    const bytes = readFileSync(file);
    let n = 0;
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) for (const r of decodeAvroBuffer(bytes, file)) if ('packet' in r) n++;
    const ms = performance.now() - t0;
    console.log(
      `decode: ${n} Spark/snappy alerts (incl. prv_candidates and cutouts) in ${ms.toFixed(0)} ms = ${Math.round((n / ms) * 1000)} alerts/s on one core`,
    );
    expect(n).toBe(270);
  }, 60_000);
});
