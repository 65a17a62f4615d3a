import { readFileSync } from 'node:fs';
import path from 'node:path';

import { angularSeparationDeg, healpixNestCenter, healpixNestPixel, healpixPixelAreaSr } from '@antares/astro';

import { WEB_ROOT } from './server';

/**
 * Gravitational-wave notices for the e2e tests: a real IGWN alert (the shared mock PRELIMINARY
 * notice) with its id, times and sky map replaced by a Gaussian blob placed over seeded loci, so the
 * test knows which loci must fall inside the 50% and 90% credible regions.
 */
const TEMPLATE = path.resolve(WEB_ROOT, '../../../shared/data/skyportal/gw/igwn_gwalert_preliminary.json');
const ORDER = 6;
const BLOCK = 2880;

export interface GaussianSkyMap {
  ra: number;
  dec: number;
  sigma: number;
  /** Multi-order FITS (NUNIQ + PROBDENSITY per steradian), as IGWN alerts carry it. */
  fits: Buffer;
  /** Credible level (0..1) of a position: the probability of all pixels at least as dense as its own. */
  levelAt(ra: number, dec: number): number;
}

/** The credible level of a Gaussian blob at angular distance d (small-angle approximation). */
export function approximateLevel(distance: number, sigma: number): number {
  return 1 - Math.exp((-distance * distance) / (2 * sigma * sigma));
}

/** A Gaussian probability blob of width sigma (degrees) at an order-6 HEALPix resolution. */
export function gaussianSkyMap(ra: number, dec: number, sigma: number): GaussianSkyMap {
  const count = 12 * 4 ** ORDER;
  const area = healpixPixelAreaSr(ORDER);
  const probability = new Float64Array(count);
  let total = 0;
  for (let p = 0; p < count; p += 1) {
    const centre = healpixNestCenter(ORDER, BigInt(p));
    const d = angularSeparationDeg(centre.ra, centre.dec, ra, dec);
    probability[p] = Math.exp((-d * d) / (2 * sigma * sigma));
    total += probability[p];
  }
  const level = new Float64Array(count);
  let cumulative = 0;
  for (const p of [...probability.keys()].sort((a, b) => probability[b] - probability[a])) {
    cumulative += probability[p] / total;
    level[p] = cumulative;
  }
  const uniqBase = 4n * 4n ** BigInt(ORDER);
  const rows = Buffer.alloc(count * 16);
  for (let p = 0; p < count; p += 1) {
    rows.writeBigInt64BE(uniqBase + BigInt(p), p * 16);
    rows.writeDoubleBE(probability[p] / total / area, p * 16 + 8);
  }
  return {
    ra,
    dec,
    sigma,
    fits: fitsTable(count, rows),
    levelAt: (r, d) => level[Number(healpixNestPixel(ORDER, r, d))],
  };
}

function card(key: string, value: string | number | boolean): string {
  const text =
    typeof value === 'string'
      ? `'${value.padEnd(8)}'`.padEnd(20)
      : typeof value === 'boolean'
        ? (value ? 'T' : 'F').padStart(20)
        : String(value).padStart(20);
  return `${key.padEnd(8)}= ${text}`.padEnd(80);
}

function header(cards: string[]): Buffer {
  const text = [...cards, 'END'.padEnd(80)].join('');
  return Buffer.from(text.padEnd(Math.ceil(text.length / BLOCK) * BLOCK), 'latin1');
}

/** A FITS file whose one extension is the UNIQ (K) / PROBDENSITY (D) binary table. */
function fitsTable(rowCount: number, rows: Buffer): Buffer {
  const primary = header([card('SIMPLE', true), card('BITPIX', 8), card('NAXIS', 0), card('EXTEND', true)]);
  const table = header([
    card('XTENSION', 'BINTABLE'),
    card('BITPIX', 8),
    card('NAXIS', 2),
    card('NAXIS1', 16),
    card('NAXIS2', rowCount),
    card('PCOUNT', 0),
    card('GCOUNT', 1),
    card('TFIELDS', 2),
    card('TTYPE1', 'UNIQ'),
    card('TFORM1', 'K'),
    card('TTYPE2', 'PROBDENSITY'),
    card('TFORM2', 'D'),
    card('TUNIT2', 'sr-1'),
    card('PIXTYPE', 'HEALPIX'),
    card('ORDERING', 'NUNIQ'),
    card('COORDSYS', 'C'),
    card('MOCORDER', ORDER),
  ]);
  const padding = Buffer.alloc((BLOCK - (rows.length % BLOCK)) % BLOCK);
  return Buffer.concat([primary, table, rows, padding]);
}

/** The shared PRELIMINARY notice with another superevent id, event and creation times, and sky map. */
export function igwnNotice(options: {
  gracedbId: string;
  eventTime: Date;
  createdTime: Date;
  map: GaussianSkyMap;
  alertType?: string;
}): Record<string, unknown> {
  const notice = JSON.parse(readFileSync(TEMPLATE, 'utf8')) as Record<string, unknown> & {
    event: Record<string, unknown>;
    urls: Record<string, string>;
  };
  return {
    ...notice,
    alert_type: options.alertType ?? 'PRELIMINARY',
    superevent_id: options.gracedbId,
    time_created: options.createdTime.toISOString(),
    urls: { gracedb: `https://gracedb.ligo.org/superevents/${options.gracedbId}/view/` },
    // A retraction carries no event, as IGWN sends it.
    event:
      options.alertType === 'RETRACTION'
        ? null
        : { ...notice.event, time: options.eventTime.toISOString(), skymap: options.map.fits.toString('base64') },
  };
}
