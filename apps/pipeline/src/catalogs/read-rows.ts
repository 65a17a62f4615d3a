import { readFileSync } from 'node:fs';

import Papa from 'papaparse';

import { readFitsTables } from '../fits/table.ts';

export type CatalogFormat = 'csv' | 'json' | 'txt' | 'fits';

/** One row of a catalog file with the line it came from (for error messages). */
export interface SourceRow {
  line: number;
  values: Record<string, unknown>;
}

export class CatalogFileError extends Error {
  override name = 'CatalogFileError';
}

/**
 * The rows of a catalog file:
 * - csv: a header row, then one object per line (numbers typed, empty lines skipped);
 * - json: an array of objects, or a GeoJSON FeatureCollection of points (`ra`/`dec` from the geometry,
 *   RA in -180..180 as d3-celestial writes it, plus `id` and the feature's properties);
 * - txt: whitespace-separated columns named by `columns`, "quoted strings" kept whole, `#` comments;
 * - fits: the first binary table (row numbers stand for lines).
 */
export function readCatalogRows(file: string, format: CatalogFormat, columns?: string[]): SourceRow[] {
  if (format === 'fits') return fitsRows(readFileSync(file));
  const text = readFileSync(file, 'utf8');
  if (format === 'csv') return csvRows(text);
  if (format === 'json') return jsonRows(text);
  if (!columns || columns.length === 0) throw new CatalogFileError('txt catalogs need --columns naming their columns');
  return txtRows(text, columns);
}

function csvRows(text: string): SourceRow[] {
  const parsed = Papa.parse<Record<string, unknown>>(text, { header: true, dynamicTyping: true, skipEmptyLines: 'greedy' });
  const fatal = parsed.errors.find((e) => e.type !== 'FieldMismatch' || e.code === 'TooManyFields');
  if (fatal) throw new CatalogFileError(`line ${(fatal.row ?? 0) + 2}: ${fatal.message}`);
  const missingFields = parsed.errors.find((e) => e.code === 'TooFewFields');
  if (missingFields) throw new CatalogFileError(`line ${(missingFields.row ?? 0) + 2}: ${missingFields.message}`);
  // Line numbers of data rows: the header is line 1; blank lines were skipped, so count them back in.
  const lineOfRow = dataLineNumbers(text);
  return parsed.data.map((values, i) => ({ line: lineOfRow[i] ?? i + 2, values }));
}

function dataLineNumbers(text: string): number[] {
  const lines = text.split(/\r?\n/);
  const numbers: number[] = [];
  for (let i = 1; i < lines.length; i++) if (lines[i].trim() !== '') numbers.push(i + 1);
  return numbers;
}

function jsonRows(text: string): SourceRow[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new CatalogFileError(`not valid JSON: ${(error as Error).message}`);
  }
  const features =
    (document as { type?: string; features?: unknown[] })?.type === 'FeatureCollection'
      ? (document as { features: unknown[] }).features
      : undefined;
  const items = features ?? document;
  if (!Array.isArray(items)) throw new CatalogFileError('a JSON catalog is an array of objects or a GeoJSON FeatureCollection');
  return items.map((item, i) => {
    if (typeof item !== 'object' || item === null) throw new CatalogFileError(`item ${i + 1}: not an object`);
    if (!features) return { line: i + 1, values: item as Record<string, unknown> };
    const feature = item as { id?: unknown; properties?: Record<string, unknown>; geometry?: { type?: string; coordinates?: unknown[] } };
    const [lon, lat] =
      feature.geometry?.type === 'Point' && Array.isArray(feature.geometry.coordinates)
        ? feature.geometry.coordinates
        : [undefined, undefined];
    const ra = typeof lon === 'number' ? (lon < 0 ? lon + 360 : lon) : undefined;
    return { line: i + 1, values: { id: feature.id, ...feature.properties, ra, dec: lat } };
  });
}

function txtRows(text: string, columns: string[]): SourceRow[] {
  const rows: SourceRow[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const cells = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].trim() : m[2]));
    if (cells.length < columns.length)
      throw new CatalogFileError(`line ${i + 1}: ${cells.length} columns, expected ${columns.length} (${columns.join(', ')})`);
    const values: Record<string, unknown> = {};
    columns.forEach((name, k) => {
      const cell = cells[k];
      values[name] = cell !== '' && Number.isFinite(Number(cell)) ? Number(cell) : cell;
    });
    rows.push({ line: i + 1, values });
  });
  return rows;
}

function fitsRows(bytes: Uint8Array): SourceRow[] {
  let tables;
  try {
    tables = readFitsTables(bytes);
  } catch (error) {
    throw new CatalogFileError(`not a readable FITS table: ${(error as Error).message}`);
  }
  const [table] = tables;
  if (!table) throw new CatalogFileError('the FITS file has no binary table');
  return Array.from({ length: table.rows }, (_, r) => ({
    line: r + 1,
    values: Object.fromEntries(table.columns.map((c) => [c, table.data[c][r]])),
  }));
}
