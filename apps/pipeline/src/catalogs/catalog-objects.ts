import { htmCircleCover } from '@antares/astro';
import type { NewCatalogObject } from '@antares/db';

import { CatalogFileError, type SourceRow } from './read-rows.ts';

/** Point sources match within 1 arcsecond. */
export const POINT_RADIUS_DEG = 1 / 3600;
/** Level of the match index (catalog_cover): trixels of about 0.07 degree. */
export const COVER_LEVEL = 10;
/** Extended sources larger than this are refused: their cover would be enormous, and no real catalog needs it. */
const MAX_RADIUS_DEG = 20;

export type AngleUnit = 'arcsec' | 'arcmin' | 'deg';
const DEGREES_PER: Record<AngleUnit, number> = { arcsec: 1 / 3600, arcmin: 1 / 60, deg: 1 };

export interface CatalogColumns {
  raCol?: string;
  decCol?: string;
  idCol?: string;
  nameCol?: string;
  /** RA given in hours (e.g. the Yale Bright Star Catalogue). */
  raHours?: boolean;
  /** A fixed match radius for every row: an extended-source catalog. */
  radius?: number;
  radiusUnit?: AngleUnit;
  /** A per-row radius (in radiusUnit); rows without one fall back to `radius`, else 1". */
  radiusCol?: string;
  /** A per-row size that is a diameter (major axis), halved into a radius. */
  diameterCol?: string;
}

/** Whether these options make an extended-source catalog. */
export function isExtended(options: CatalogColumns): boolean {
  return options.radius !== undefined || options.radiusCol !== undefined || options.diameterCol !== undefined;
}

/** The HTM level-10 trixels a match circle touches. */
export function coverOf(ra: number, dec: number, radiusDeg: number): number[] {
  const ids: number[] = [];
  for (const [start, end] of htmCircleCover(ra, dec, radiusDeg, { level: COVER_LEVEL, maxRanges: 4096 })) {
    for (let id = start; id <= end; id++) ids.push(id);
  }
  return ids;
}

/**
 * Checks every row and turns it into a catalog object (all its columns kept as properties). The first
 * bad row stops the import with its line number: nothing is half-imported. Rows with neither right
 * ascension nor declination (real catalogs list objects whose position is unknown) are skipped and
 * counted; a row with only one of them, or with text or an impossible value, is an error.
 */
export function toCatalogObjects(rows: SourceRow[], options: CatalogColumns): { objects: NewCatalogObject[]; skipped: number } {
  if (rows.length === 0) throw new CatalogFileError('the file has no rows');
  const raCol = options.raCol ?? pickColumn(rows[0].values, ['ra', 'ra_deg', 'RA', 'raj2000', 'RAJ2000']);
  const decCol = options.decCol ?? pickColumn(rows[0].values, ['dec', 'dec_deg', 'DEC', 'Dec', 'dej2000', 'DEJ2000']);
  const idCol = options.idCol ?? pickColumn(rows[0].values, ['id', 'ID', 'name', 'designation', 'desig']);
  const unit = DEGREES_PER[options.radiusUnit ?? 'arcsec'];
  const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';
  const positioned = rows.filter(({ values }) => !(blank(values[raCol]) && blank(values[decCol])));
  const objects = positioned.map(({ line, values }) => {
    const number = (column: string, what: string): number => {
      if (!(column in values) || values[column] === null || values[column] === '')
        throw new CatalogFileError(`line ${line}: ${what} column "${column}" is missing or empty`);
      const v = typeof values[column] === 'string' ? Number((values[column] as string).trim()) : values[column];
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw new CatalogFileError(`line ${line}: ${what} "${String(values[column])}" is not a number`);
      return v;
    };
    const ra = number(raCol, 'right ascension') * (options.raHours ? 15 : 1);
    const dec = number(decCol, 'declination');
    if (ra < 0 || ra >= 360 + 1e-9) throw new CatalogFileError(`line ${line}: right ascension ${ra} is outside 0..360 degrees`);
    if (dec < -90 || dec > 90) throw new CatalogFileError(`line ${line}: declination ${dec} is outside -90..90 degrees`);
    const radius = radiusOf(values, options, unit, line);
    const key = values[idCol];
    if (key === undefined || key === null || String(key).trim() === '')
      throw new CatalogFileError(`line ${line}: id column "${idCol}" is missing or empty`);
    const name = options.nameCol ? values[options.nameCol] : undefined;
    return {
      object_key: String(key).trim(),
      object_name: name === undefined || name === null || String(name).trim() === '' ? null : String(name).trim(),
      ra: ra % 360,
      dec,
      radius,
      properties: values as NewCatalogObject['properties'],
      cover: coverOf(ra % 360, dec, radius),
    };
  });
  return { objects, skipped: rows.length - positioned.length };
}

function radiusOf(values: Record<string, unknown>, options: CatalogColumns, unit: number, line: number): number {
  const column = options.radiusCol ?? options.diameterCol;
  let radius = options.radius !== undefined ? options.radius * unit : POINT_RADIUS_DEG;
  if (column) {
    const raw = values[column];
    if (raw !== undefined && raw !== null && String(raw).trim() !== '') {
      const v = Number(raw);
      if (!Number.isFinite(v) || v < 0)
        throw new CatalogFileError(`line ${line}: size "${String(raw)}" in column "${column}" is not a non-negative number`);
      radius = Math.max(POINT_RADIUS_DEG, v * unit * (options.diameterCol ? 0.5 : 1));
    }
  }
  if (radius > MAX_RADIUS_DEG)
    throw new CatalogFileError(`line ${line}: a match radius of ${radius} degrees is more than ${MAX_RADIUS_DEG}`);
  return radius;
}

function pickColumn(values: Record<string, unknown>, names: string[]): string {
  return names.find((n) => n in values) ?? names[0];
}
