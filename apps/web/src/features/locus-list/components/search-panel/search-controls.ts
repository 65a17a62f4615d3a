import { parseCoordinates } from '@antares/astro';

import type { SearchFilter } from '@/lib/locus-query';
import { dateToMjd } from '@/lib/time';

/**
 * The search panel's pure logic: control state, the filters it would apply, and whether that
 * differs from what is applied (the Apply Filters button shows only then).
 */
export const TIME_RANGE_CHOICES = ['LAST_DAY', 'LAST_WEEK', 'LAST_MONTH', 'LAST_YEAR', 'ALL_TIME', 'CUSTOM_RANGE'] as const;
export type TimeRangeChoice = (typeof TIME_RANGE_CHOICES)[number];

export const TIME_RANGE_LABELS: Record<TimeRangeChoice, string> = {
  LAST_DAY: 'Last Day',
  LAST_WEEK: 'Last Week',
  LAST_MONTH: 'Last Month',
  LAST_YEAR: 'Last Year',
  ALL_TIME: 'All Time',
  CUSTOM_RANGE: 'Custom Range',
};

export const LATEST_FIELD = 'properties.newest_alert_observation_time';
export const FIRST_FIELD = 'properties.oldest_alert_observation_time';
export const MEASUREMENTS_FIELD = 'properties.num_mag_values';
export const GW_FIELD = 'grav_wave_events';

export interface TimeRangeControl {
  choice: TimeRangeChoice;
  min: string;
  max: string;
}

export interface ConeControl {
  center: string;
  radius: string;
  unit: 'arcsec' | 'arcmin';
}

export interface SearchControls {
  latest: TimeRangeControl;
  first: TimeRangeControl;
  /** null: untouched (keeps whatever is applied). */
  measurements: [number, number] | null;
  cone: ConeControl;
  catalogs: string[];
  tags: string[];
  gravWaveId: string;
}

function choiceOf(filters: SearchFilter[], field: string): TimeRangeChoice {
  const applied = filters.find((filter) => filter.type === 'range' && filter.field === field);
  const choice = applied?.options?.choice;
  return TIME_RANGE_CHOICES.includes(choice as TimeRangeChoice) ? (choice as TimeRangeChoice) : applied ? 'CUSTOM_RANGE' : 'ALL_TIME';
}

/** Controls after a filter change: text inputs and selections cleared, radius back to 1. */
export function initialControls(applied: SearchFilter[]): SearchControls {
  return {
    latest: { choice: choiceOf(applied, LATEST_FIELD), min: '', max: '' },
    first: { choice: choiceOf(applied, FIRST_FIELD), min: '', max: '' },
    measurements: null,
    cone: { center: '', radius: '1', unit: 'arcsec' },
    catalogs: [],
    tags: [],
    gravWaveId: '',
  };
}

/** Minimum MJD of a relative choice: now minus 1 day, 7 days, 1 month or 1 year. */
export function relativeMinimumMjd(choice: TimeRangeChoice, now: Date = new Date()): number | undefined {
  const date = new Date(now.getTime());
  if (choice === 'LAST_DAY') date.setUTCDate(date.getUTCDate() - 1);
  else if (choice === 'LAST_WEEK') date.setUTCDate(date.getUTCDate() - 7);
  else if (choice === 'LAST_MONTH') date.setUTCMonth(date.getUTCMonth() - 1);
  else if (choice === 'LAST_YEAR') date.setUTCFullYear(date.getUTCFullYear() - 1);
  else return undefined;
  return dateToMjd(date);
}

type Result = { filters: SearchFilter[]; errors: Record<string, string> };

function replaceField(filters: SearchFilter[], match: (filter: SearchFilter) => boolean, next: SearchFilter | null): SearchFilter[] {
  const index = filters.findIndex(match);
  if (index === -1) return next ? [...filters, next] : filters;
  const copy = [...filters];
  if (next) copy[index] = next;
  else copy.splice(index, 1);
  return copy;
}

function parseNumber(text: string): number | undefined | null {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

function applyTimeRange(result: Result, field: string, label: string, control: TimeRangeControl, applied: SearchFilter[], now: Date): void {
  const isField = (filter: SearchFilter) => filter.type === 'range' && filter.field === field;
  const current = applied.find(isField);
  const currentChoice = choiceOf(applied, field);
  if (control.choice === 'ALL_TIME') {
    if (current) result.filters = replaceField(result.filters, isField, null);
    return;
  }
  if (control.choice === 'CUSTOM_RANGE') {
    const min = parseNumber(control.min);
    const max = parseNumber(control.max);
    if (min === null || max === null) {
      result.errors[field] = 'MJD bounds must be numbers.';
      return;
    }
    // Cleared custom bounds keep whatever is applied (the controls reset after every change).
    if (min === undefined && max === undefined) return;
    const value: Record<string, number> = {};
    if (min !== undefined) value.gte = min;
    if (max !== undefined) value.lte = max;
    const text =
      min !== undefined && max !== undefined
        ? `${label}: MJD ${min} - ${max}`
        : min !== undefined
          ? `${label}: MJD ${min} or later`
          : `${label}: MJD ${max} or earlier`;
    result.filters = replaceField(result.filters, isField, { type: 'range', field, value, options: { choice: 'CUSTOM_RANGE' }, text });
    return;
  }
  if (current && currentChoice === control.choice) return;
  const filter: SearchFilter = {
    type: 'range',
    field,
    value: { gte: relativeMinimumMjd(control.choice, now) },
    options: { choice: control.choice },
    text: `${label}: ${TIME_RANGE_LABELS[control.choice]}`,
  };
  result.filters = replaceField(result.filters, isField, filter);
}

export function coneRadiusDegrees(radius: number, unit: 'arcsec' | 'arcmin'): number {
  return unit === 'arcsec' ? radius / 3600 : radius / 60;
}

/** The filters the controls would apply on top of `applied`, plus per-control validation errors. */
export function buildFilters(
  applied: SearchFilter[],
  controls: SearchControls,
  bounds: { min: number; max: number },
  now: Date = new Date(),
): Result {
  const result: Result = { filters: [...applied], errors: {} };
  applyTimeRange(result, LATEST_FIELD, 'Latest Alert Within', controls.latest, applied, now);
  applyTimeRange(result, FIRST_FIELD, 'First Alert Within', controls.first, applied, now);

  if (controls.measurements) {
    const [lo, hi] = controls.measurements;
    const isField = (filter: SearchFilter) => filter.type === 'range' && filter.field === MEASUREMENTS_FIELD;
    const full = lo <= bounds.min && hi >= bounds.max;
    result.filters = replaceField(
      result.filters,
      isField,
      full
        ? null
        : { type: 'range', field: MEASUREMENTS_FIELD, value: { gte: lo, lte: hi }, text: `Number of Measurements: ${lo} - ${hi}` },
    );
  }

  if (controls.cone.center.trim() !== '') {
    let position: { ra: number; dec: number } | undefined;
    try {
      position = parseCoordinates(controls.cone.center);
    } catch (error) {
      result.errors.center = error instanceof Error ? error.message : String(error);
    }
    const radius = Number(controls.cone.radius);
    if (!position) result.errors.center ??= 'Enter coordinates in decimal degrees, degrees (d/m/s) or sexagesimal hours with colons.';
    else if (!Number.isFinite(radius) || radius <= 0) result.errors.radius = 'The radius must be a positive number.';
    else {
      const unitMark = controls.cone.unit === 'arcsec' ? '"' : "'";
      const filter: SearchFilter = {
        type: 'sky_distance',
        field: { distance: `${coneRadiusDegrees(radius, controls.cone.unit)} degree`, htm16: { center: `${position.ra} ${position.dec}` } },
        text: `Cone Search: ${controls.cone.center.trim()} (${radius}${unitMark})`,
      };
      result.filters = replaceField(result.filters, (f) => f.type === 'sky_distance', filter);
    }
  }

  for (const [field, values, label] of [
    ['catalogs', controls.catalogs, 'Catalogs'],
    ['tags', controls.tags, 'Tags'],
  ] as const) {
    if (values.length === 0) continue;
    const sorted = [...values].sort();
    const filter: SearchFilter = { type: 'terms', field, value: sorted, text: `${label}: ${sorted.join(', ')}` };
    result.filters = replaceField(result.filters, (f) => f.type === 'terms' && f.field === field, filter);
  }

  const gw = controls.gravWaveId.trim();
  if (gw !== '') {
    // A prefix match on the event id.
    const filter: SearchFilter = { type: 'wildcard', field: GW_FIELD, value: `${gw}*`, text: `Gravitational Wave Event: ${gw}` };
    result.filters = replaceField(result.filters, (f) => f.type === 'wildcard' && f.field === GW_FIELD, filter);
  }
  return result;
}

/** Equality that ignores the exact bound of relative time ranges (they move with the clock). */
function signature(filter: SearchFilter): string {
  const relative = typeof filter.options?.choice === 'string' && filter.options.choice.startsWith('LAST_');
  return JSON.stringify([filter.type, filter.field, relative ? null : filter.value, filter.options ?? null]);
}

export function sameFilters(a: SearchFilter[], b: SearchFilter[]): boolean {
  if (a.length !== b.length) return false;
  const left = a.map(signature).sort();
  const right = b.map(signature).sort();
  return left.every((item, i) => item === right[i]);
}
