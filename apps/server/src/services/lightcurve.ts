import { mjdToDate } from '@antares/astro';
import type { AlertRow } from '@antares/db';

/** The lightcurve CSV columns, in the order clients rely on (wire format section 3). */
export const LIGHTCURVE_COLUMNS = [
  'time',
  'alert_id',
  'ant_mjd',
  'ant_survey',
  'ant_ra',
  'ant_dec',
  'ant_passband',
  'ant_mag',
  'ant_magerr',
  'ant_maglim',
  'ant_mag_corrected',
  'ant_magerr_corrected',
  'ant_magulim_corrected',
  'ant_magllim_corrected',
] as const;

/** One row per alert, oldest first; empty cells are missing values (an empty ant_mag is an upper limit). */
export function lightcurveCsv(alerts: AlertRow[]): string {
  const lines = [LIGHTCURVE_COLUMNS.join(',')];
  for (const alert of alerts) {
    const cells = LIGHTCURVE_COLUMNS.map((column) => {
      if (column === 'time') return isoTime(alert.mjd);
      if (column === 'alert_id') return csvCell(alert.alert_id);
      if (column === 'ant_mjd') return String(alert.mjd);
      return csvCell(alert.properties[column]);
    });
    lines.push(cells.join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** 'YYYY-MM-DD HH:MM:SS.sss' (UTC), the form pandas reads as a timestamp. */
function isoTime(mjd: number): string {
  return mjdToDate(mjd).toISOString().replace('T', ' ').replace('Z', '');
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
