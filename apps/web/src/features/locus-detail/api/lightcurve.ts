/**
 * The locus lightcurve: parsing of the `lightcurve` CSV and the derived frontend_* magnitude fields.
 * Any parse error aborts the load (spec), so a malformed CSV shows an error instead of a partial plot.
 */
export type MagType = 'raw' | 'calibrated' | 'raw_maglim' | 'calibrated_maglim' | 'ERROR_OTHER';

export interface LightcurvePoint {
  alert_id: string;
  ant_mjd: number;
  ant_survey?: number;
  ant_ra?: number;
  ant_dec?: number;
  ant_passband: string;
  ant_mag?: number;
  ant_magerr?: number;
  ant_maglim?: number;
  ant_mag_corrected?: number;
  ant_magerr_corrected?: number;
  ant_magulim_corrected?: number;
  ant_magllim_corrected?: number;
  frontend_mag_type: MagType;
  frontend_mag?: number;
  frontend_magerr?: number;
  frontend_magulim?: number;
  frontend_magllim?: number;
}

const NUMERIC = [
  'ant_mjd',
  'ant_survey',
  'ant_ra',
  'ant_dec',
  'ant_mag',
  'ant_magerr',
  'ant_maglim',
  'ant_mag_corrected',
  'ant_magerr_corrected',
  'ant_magulim_corrected',
  'ant_magllim_corrected',
] as const;

export class LightcurveParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LightcurveParseError';
  }
}

/** Splits one CSV line (RFC 4180 quoting). */
function splitCsvLine(line: string, lineNumber: number): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  if (quoted) throw new LightcurveParseError(`Unterminated quote on line ${lineNumber}`);
  cells.push(cell);
  return cells;
}

/** Which magnitude a point shows, by the spec's priority. */
export function deriveMagnitudes(
  row: Partial<LightcurvePoint>,
): Pick<LightcurvePoint, 'frontend_mag_type' | 'frontend_mag' | 'frontend_magerr' | 'frontend_magulim' | 'frontend_magllim'> {
  if (row.ant_mag_corrected !== undefined) {
    return {
      frontend_mag_type: 'calibrated',
      frontend_mag: row.ant_mag_corrected,
      frontend_magerr: row.ant_magerr_corrected,
      frontend_magulim: row.ant_magulim_corrected,
      frontend_magllim: row.ant_magllim_corrected,
    };
  }
  if (row.ant_magulim_corrected !== undefined) {
    return {
      frontend_mag_type: 'calibrated_maglim',
      frontend_magulim: row.ant_magulim_corrected,
      frontend_magllim: row.ant_magllim_corrected,
    };
  }
  if (row.ant_mag !== undefined) return { frontend_mag_type: 'raw', frontend_mag: row.ant_mag, frontend_magerr: row.ant_magerr };
  if (row.ant_maglim !== undefined) return { frontend_mag_type: 'raw_maglim', frontend_magulim: row.ant_maglim };
  return { frontend_mag_type: 'ERROR_OTHER' };
}

export function parseLightcurve(csv: string | undefined): LightcurvePoint[] {
  if (!csv || csv.trim() === '') return [];
  const lines = csv.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = splitCsvLine(lines[0], 1).map((name) => name.trim());
  for (const required of ['alert_id', 'ant_mjd', 'ant_passband']) {
    if (!header.includes(required)) throw new LightcurveParseError(`Lightcurve has no ${required} column`);
  }
  return lines.slice(1).map((line, index) => {
    const cells = splitCsvLine(line, index + 2);
    if (cells.length !== header.length)
      throw new LightcurveParseError(`Line ${index + 2} has ${cells.length} cells, expected ${header.length}`);
    const row: Record<string, unknown> = {};
    header.forEach((name, i) => {
      const text = cells[i].trim();
      if ((NUMERIC as readonly string[]).includes(name)) {
        if (text === '') return;
        const value = Number(text);
        if (!Number.isFinite(value)) throw new LightcurveParseError(`Line ${index + 2}: ${name} is not a number ("${text}")`);
        row[name] = value;
      } else row[name] = text;
    });
    if (row.ant_mjd === undefined) throw new LightcurveParseError(`Line ${index + 2} has no ant_mjd`);
    const point = row as unknown as LightcurvePoint;
    return { ...point, ...deriveMagnitudes(point) };
  });
}

/** Drawn only when magnitude, upper limit and lower limit, where present, are not negative. */
export function isDrawable(point: LightcurvePoint): boolean {
  return [point.frontend_mag, point.frontend_magulim, point.frontend_magllim].every((value) => value === undefined || value >= 0);
}
