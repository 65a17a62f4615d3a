// FITS binary tables (XTENSION = 'BINTABLE'): catalogs and gravitational-wave sky maps come as these.
// Scalar and fixed-width columns of the common types; variable-length arrays (P/Q) are refused.
import { gunzipSync } from 'node:zlib';

import { isGzip } from '../bytes.ts';
import { type FitsHeader, parseHeader } from './fits.ts';

const BLOCK = 2880;

export interface FitsTable {
  header: FitsHeader;
  columns: string[];
  rows: number;
  /** Column name -> values (numbers, strings, booleans, or arrays of them for repeat counts > 1). */
  data: Record<string, unknown[]>;
}

interface Column {
  name: string;
  code: string;
  repeat: number;
  offset: number;
  scale: number;
  zero: number;
  nullValue?: number;
}

const WIDTH: Record<string, number> = { L: 1, B: 1, I: 2, J: 4, K: 8, E: 4, D: 8, A: 1 };

/** The binary-table HDUs of a FITS file (optionally gzipped), in order. */
export function readFitsTables(input: Uint8Array): FitsTable[] {
  const bytes = isGzip(input) ? new Uint8Array(gunzipSync(input)) : input;
  const tables: FitsTable[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const { header, dataOffset } = parseHeader(bytes.subarray(offset));
    const start = offset + dataOffset;
    const size = dataSize(header);
    if (header.XTENSION === 'BINTABLE') tables.push(readTable(header, bytes.subarray(start, start + size)));
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
    if (size === 0 && dataOffset === 0) break;
  }
  return tables;
}

function dataSize(header: FitsHeader): number {
  const naxis = Number(header.NAXIS ?? 0);
  if (naxis === 0) return 0;
  let n = Math.abs(Number(header.BITPIX)) / 8;
  for (let k = 1; k <= naxis; k++) n *= Number(header[`NAXIS${k}`]);
  return n + Number(header.PCOUNT ?? 0) * Number(header.GCOUNT ?? 1);
}

function readTable(header: FitsHeader, bytes: Uint8Array): FitsTable {
  const rowBytes = Number(header.NAXIS1);
  const rows = Number(header.NAXIS2);
  if (bytes.length < rowBytes * rows) throw new Error(`FITS: table data truncated (need ${rowBytes * rows} bytes, have ${bytes.length})`);
  const columns: Column[] = [];
  let offset = 0;
  for (let i = 1; i <= Number(header.TFIELDS); i++) {
    const form = String(header[`TFORM${i}`] ?? '').trim();
    const match = /^(\d*)([LXBIJKAEDCMPQ])/.exec(form);
    if (!match) throw new Error(`FITS: column ${i} has an unreadable TFORM "${form}"`);
    const repeat = match[1] === '' ? 1 : Number(match[1]);
    const code = match[2];
    if (!(code in WIDTH)) throw new Error(`FITS: column ${i} (${String(header[`TTYPE${i}`])}) has type ${code}, which is not supported`);
    const name = String(header[`TTYPE${i}`] ?? `col${i}`).trim();
    columns.push({
      name,
      code,
      repeat,
      offset,
      scale: typeof header[`TSCAL${i}`] === 'number' ? (header[`TSCAL${i}`] as number) : 1,
      zero: typeof header[`TZERO${i}`] === 'number' ? (header[`TZERO${i}`] as number) : 0,
      nullValue: typeof header[`TNULL${i}`] === 'number' ? (header[`TNULL${i}`] as number) : undefined,
    });
    offset += WIDTH[code] * repeat;
  }
  if (offset !== rowBytes) throw new Error(`FITS: the columns take ${offset} bytes but rows are ${rowBytes}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, rowBytes * rows);
  const data: Record<string, unknown[]> = {};
  for (const column of columns) {
    const values: unknown[] = new Array(rows);
    for (let r = 0; r < rows; r++) {
      const at = r * rowBytes + column.offset;
      if (column.code === 'A') {
        let text = '';
        for (let k = 0; k < column.repeat; k++) {
          const c = view.getUint8(at + k);
          if (c === 0) break;
          text += String.fromCharCode(c);
        }
        values[r] = text.trimEnd();
        continue;
      }
      const items: unknown[] = [];
      for (let k = 0; k < column.repeat; k++) items.push(cell(view, at + k * WIDTH[column.code], column));
      values[r] = column.repeat === 1 ? items[0] : items;
    }
    data[column.name] = values;
  }
  return { header, columns: columns.map((c) => c.name), rows, data };
}

function cell(view: DataView, at: number, column: Column): number | boolean | null {
  let raw: number;
  switch (column.code) {
    case 'L':
      return view.getUint8(at) === 0 ? null : view.getUint8(at) === 0x54;
    case 'B':
      raw = view.getUint8(at);
      break;
    case 'I':
      raw = view.getInt16(at);
      break;
    case 'J':
      raw = view.getInt32(at);
      break;
    // 64-bit integers: exact up to 2^53, which HEALPix NUNIQ values (< 2^60 at order 29) may exceed
    // only at orders a sky map never uses.
    case 'K':
      raw = Number(view.getBigInt64(at));
      break;
    case 'E':
      raw = view.getFloat32(at);
      break;
    default:
      raw = view.getFloat64(at);
      break;
  }
  if (column.nullValue !== undefined && raw === column.nullValue) return null;
  if (Number.isNaN(raw)) return null;
  return column.zero + column.scale * raw;
}
