/** Number formatting shared by every table: the spec fixes 2 decimals for coordinates, magnitudes and MJDs. */
export function formatFixed(value: unknown, digits = 2): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n.toFixed(digits) : String(value);
}

const METRIC_SUFFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E'];

/** Metric suffixes k, M, G, T, P, E, each a factor of 1000 (e.g. counts next to tag names). */
export function formatMetric(value: number): string {
  let n = value;
  let i = 0;
  while (Math.abs(n) >= 1000 && i < METRIC_SUFFIXES.length - 1) {
    n /= 1000;
    i += 1;
  }
  const text = i === 0 ? String(Math.round(n)) : n.toFixed(Math.abs(n) < 10 ? 1 : 0).replace(/\.0$/, '');
  return `${text}${METRIC_SUFFIXES[i]}`;
}

export function isNumeric(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Property values are shown as text; objects and arrays as compact JSON. */
export function formatPropertyValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A value of a catalog row as the catalog has it: numbers unrounded (positions need every digit), objects as JSON. */
export function formatCatalogValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** 'Showing X-Y of N' style bounds for a 1-based page. */
export function pageBounds(page: number, perPage: number, count: number): { from: number; to: number } {
  if (count <= 0) return { from: 0, to: 0 };
  const from = (page - 1) * perPage + 1;
  return { from, to: Math.min(count, page * perPage) };
}
