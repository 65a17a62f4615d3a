import { formatMetric, isNumeric } from '@/lib/format';

const SECONDS_PER_YEAR = 365.25 * 86_400;

/** A false alarm rate in Hz, e.g. '5.18e-16 Hz'; empty when unknown. */
export function formatFar(far: number | null): string {
  return isNumeric(far) ? `${far.toExponential(2)} Hz` : '';
}

/** The same rate as 'one false alarm per N years' (N with metric suffixes), the way alerts are usually read. */
export function formatFarPerYear(far: number | null): string {
  if (!isNumeric(far) || far <= 0) return '';
  const years = 1 / (far * SECONDS_PER_YEAR);
  if (years < 1) return `${formatMetric(far * SECONDS_PER_YEAR)} per year`;
  return `1 per ${formatMetric(years)} years`;
}

/** A sky area in deg²: whole degrees from 100 up (with thousands separators), else one decimal. */
export function formatArea(area: number | null): string {
  if (!isNumeric(area)) return '';
  return area >= 100 ? `${Math.round(area).toLocaleString('en-US')} deg²` : `${area.toFixed(1)} deg²`;
}

/** The GraceDB page of a superevent (the events' public record). */
export function graceDbUrl(gracedbId: string): string {
  return `https://gracedb.ligo.org/superevents/${encodeURIComponent(gracedbId)}/view/`;
}
