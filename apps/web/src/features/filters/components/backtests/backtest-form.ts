import type { BacktestRequest } from '@/features/filters/api/backtests';
import { dateToMjd } from '@/lib/time';

/**
 * The contract's BACKTEST_DEFAULT_LOCI (a value import from @antares/contract/endpoints would bring
 * TypeBox into the bundle): what the server replays when asked nothing else.
 */
export const DEFAULT_MAX_LOCI = 1000;

export interface BacktestForm {
  /** How the window is typed: calendar dates (UTC) or MJD. */
  unit: 'date' | 'mjd';
  from: string;
  to: string;
  /** A /v1/loci search document as JSON text; blank: all loci. */
  search: string;
  maxLoci: string;
}

export const EMPTY_FORM: BacktestForm = { unit: 'date', from: '', to: '', search: '', maxLoci: String(DEFAULT_MAX_LOCI) };

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A bound of the window as an MJD: a date's start (from) or its end (to, so the day is included); null when blank. */
function bound(text: string, unit: BacktestForm['unit'], end: boolean): number | null | string {
  const value = text.trim();
  if (value === '') return null;
  if (unit === 'mjd') {
    const mjd = Number(value);
    return Number.isFinite(mjd) && mjd >= 0 ? mjd : 'an MJD (a number)';
  }
  if (!DAY_RE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return 'a date (YYYY-MM-DD)';
  return dateToMjd(new Date(`${value}T00:00:00Z`)) + (end ? 1 : 0);
}

/** The request a form asks for, or the first problem with it (a sentence for the user). */
export function backtestRequest(form: BacktestForm): { request: BacktestRequest } | { problem: string } {
  const from = bound(form.from, form.unit, false);
  const to = bound(form.to, form.unit, true);
  if (typeof from === 'string') return { problem: `From must be ${from}.` };
  if (typeof to === 'string') return { problem: `To must be ${to}.` };
  if (from !== null && to !== null && from > to) return { problem: 'From must not be after To.' };
  const cap = Number(form.maxLoci);
  if (!Number.isInteger(cap) || cap < 1) return { problem: 'The cap on loci must be a whole number of at least 1.' };
  const request: BacktestRequest = { max_loci: cap };
  if (from !== null) request.from_mjd = from;
  if (to !== null) request.to_mjd = to;
  if (form.search.trim() !== '') {
    let search: unknown;
    try {
      search = JSON.parse(form.search);
    } catch {
      return { problem: 'The locus search must be JSON, such as {"query": {"bool": {"filter": [...]}}}.' };
    }
    if (typeof search !== 'object' || search === null || Array.isArray(search))
      return { problem: 'The locus search must be a JSON object, such as {"query": {...}}.' };
    request.elasticsearch_query = search;
  }
  return { request };
}

/** Seconds as "1 h 5 min", "3 min 20 s" or "12 s". */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

/** A share of one core as a percentage with sensible digits (tiny shares stay visible). */
export function shareText(share: number | null): string {
  if (share === null) return 'n/a';
  const percent = share * 100;
  if (percent === 0) return '0 %';
  return `${percent >= 1 ? percent.toFixed(1) : percent.toPrecision(2)} %`;
}

export function msText(value: number | null): string {
  return value === null ? 'n/a' : `${value.toFixed(2)} ms`;
}
