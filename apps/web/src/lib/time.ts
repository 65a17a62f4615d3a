import { dateToMjd, formatMjdAsUtc, mjdToDate } from '@antares/astro';

import { isNumeric } from './format';

/** MJD -> 'YYYY-MM-DD HH:MM:SS' (UTC); empty text for a missing value. */
export function mjdText(mjd: unknown): string {
  return isNumeric(mjd) ? formatMjdAsUtc(mjd) : '';
}

export function nowMjd(): number {
  return dateToMjd(new Date());
}

export { dateToMjd, mjdToDate };

/** An ISO timestamp (server `created_at`) -> 'YYYY-MM-DD HH:MM:SS' in UTC; empty text when missing or invalid. */
export function isoUtcText(iso: unknown): string {
  if (typeof iso !== 'string' || iso === '') return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 19).replace('T', ' ');
}
