/**
 * Julian / Modified Julian Dates. MJD = JD - 2400000.5, so MJD 0 is
 * 1858-11-17T00:00:00Z and days start at midnight.
 *
 * Conversions to and from JS Dates treat the time scale as UTC with every day
 * exactly 86400 s long (like Unix time), i.e. leap seconds are not modelled;
 * that is how survey alert MJDs are normally converted for display.
 */
export const MJD_EPOCH_JD = 2_400_000.5;
/** MJD of the Unix epoch 1970-01-01T00:00:00Z. */
export const UNIX_EPOCH_MJD = 40_587;

const MS_PER_DAY = 86_400_000;
const SECONDS_PER_DAY = 86_400;

export function jdToMjd(jd: number): number {
  return jd - MJD_EPOCH_JD;
}

export function mjdToJd(mjd: number): number {
  return mjd + MJD_EPOCH_JD;
}

export function mjdToDate(mjd: number): Date {
  return new Date((mjd - UNIX_EPOCH_MJD) * MS_PER_DAY);
}

export function dateToMjd(date: Date): number {
  return date.getTime() / MS_PER_DAY + UNIX_EPOCH_MJD;
}

export function unixSecondsToMjd(unixSeconds: number): number {
  return unixSeconds / SECONDS_PER_DAY + UNIX_EPOCH_MJD;
}

/** 'YYYY-MM-DD HH:MM:SS' in UTC, rounded to the nearest second (half a second rounds up). */
export function formatMjdAsUtc(mjd: number): string {
  const milliseconds = (mjd - UNIX_EPOCH_MJD) * MS_PER_DAY;
  if (!Number.isFinite(milliseconds)) {
    throw new RangeError(`MJD must be a finite number, got ${mjd}`);
  }
  const rounded = new Date(Math.round(milliseconds / 1000) * 1000);
  const year = rounded.getUTCFullYear();
  // toISOString gives 'YYYY-MM-DDTHH:MM:SS.000Z' only for years 0..9999.
  if (Number.isNaN(year) || year < 0 || year > 9999) {
    throw new RangeError(`MJD ${mjd} is outside the years 0000..9999 this format can show`);
  }
  return rounded.toISOString().slice(0, 19).replace('T', ' ');
}
