import { formatDecimal, formatSexagesimal, icrsToGalactic } from '@antares/astro';

/** The header's coordinate lines: 'ICRS: ' and 'Gal: ', each sexagesimal (2 fraction digits) and decimal (4). */
export function icrsText(ra: number, dec: number): { sexagesimal: string; decimal: string } {
  const s = formatSexagesimal(ra, dec);
  return { sexagesimal: `ICRS: ${s.ra} ${s.dec}`, decimal: `ICRS: ${formatDecimal(ra)} ${formatDecimal(dec)}` };
}

/** Galactic l and b are both angles in degrees, so both use the degree form (DD:MM:SS.ss). */
export function galacticText(ra: number, dec: number, galactic?: { l: number; b: number }): { sexagesimal: string; decimal: string } {
  const { l, b } = galactic ?? icrsToGalactic(ra, dec);
  const lDms = formatSexagesimal(0, l).dec.replace(/^\+/, '');
  const bDms = formatSexagesimal(0, b).dec;
  return { sexagesimal: `Gal: ${lDms} ${bDms}`, decimal: `Gal: ${formatDecimal(l)} ${formatDecimal(b)}` };
}
