import { CredibleSkyMap, healpixNestCenter } from '@antares/astro';
import { storableTime, TIME_YEARS } from '@antares/contract';

import { readFitsTables } from '../fits/table.ts';

export const NOTICE_TYPES = ['EARLY_WARNING', 'PRELIMINARY', 'INITIAL', 'UPDATE', 'RETRACTION'] as const;
export type NoticeType = (typeof NOTICE_TYPES)[number];

export class GwNoticeError extends Error {
  override name = 'GwNoticeError';
}

/** An IGWN alert (the JSON LIGO/Virgo/KAGRA publish on Kafka `igwn.gwalert`), read and checked. */
export interface GwNotice {
  gracedb_id: string;
  notice_type: NoticeType;
  /** When the notice was made (`time_created`), ISO. */
  notice_datetime: string;
  /** When the event happened (`event.time`), ISO; null for a retraction. */
  event_datetime: string | null;
  false_alarm_rate: number | null;
  /** The multi-order FITS sky map as sent (base64-decoded); null for a retraction. */
  skymap_fits: Buffer | null;
  skymap: CredibleSkyMap | null;
  external_coinc: unknown;
  full_notice: Record<string, unknown>;
}

/** Parses an IGWN alert; anything malformed is a GwNoticeError naming what. */
export function parseIgwnNotice(input: string | Record<string, unknown>): GwNotice {
  let notice: Record<string, unknown>;
  if (typeof input === 'string') {
    try {
      notice = JSON.parse(input);
    } catch (error) {
      throw new GwNoticeError(`not valid JSON: ${(error as Error).message}`);
    }
  } else notice = input;
  if (typeof notice !== 'object' || notice === null) throw new GwNoticeError('a notice is a JSON object');
  const id = notice.superevent_id;
  if (typeof id !== 'string' || !/^[A-Z]{1,2}\d{6}[a-z]+$/.test(id))
    throw new GwNoticeError(`superevent_id "${String(id)}" is not a GraceDB superevent id`);
  const type = notice.alert_type;
  if (!NOTICE_TYPES.includes(type as NoticeType))
    throw new GwNoticeError(`alert_type "${String(type)}" is not one of ${NOTICE_TYPES.join(', ')}`);
  const created = isoTime(notice.time_created, 'time_created');
  if (type === 'RETRACTION') {
    return {
      gracedb_id: id,
      notice_type: 'RETRACTION',
      notice_datetime: created,
      event_datetime: null,
      false_alarm_rate: null,
      skymap_fits: null,
      skymap: null,
      external_coinc: null,
      full_notice: notice,
    };
  }
  const event = notice.event as Record<string, unknown> | null;
  if (typeof event !== 'object' || event === null) throw new GwNoticeError(`a ${String(type)} notice needs its event`);
  if (typeof event.skymap !== 'string' || event.skymap === '') throw new GwNoticeError('event.skymap is missing');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(event.skymap.replace(/\s/g, ''))) throw new GwNoticeError('event.skymap is not base64');
  const fits = Buffer.from(event.skymap, 'base64');
  return {
    gracedb_id: id,
    notice_type: type as NoticeType,
    notice_datetime: created,
    event_datetime: isoTime(event.time, 'event.time'),
    false_alarm_rate: typeof event.far === 'number' ? event.far : null,
    skymap_fits: fits,
    skymap: readSkyMap(fits),
    external_coinc: notice.external_coinc ?? null,
    full_notice: notice,
  };
}

/**
 * A sky map from FITS: multi-order (UNIQ + PROBDENSITY) or single-order NESTED (PROB), gzipped or not.
 */
export function readSkyMap(bytes: Uint8Array): CredibleSkyMap {
  let table;
  try {
    [table] = readFitsTables(bytes);
  } catch (error) {
    throw new GwNoticeError(`the sky map is not a readable FITS file: ${(error as Error).message}`);
  }
  if (!table) throw new GwNoticeError('the sky map FITS file has no table');
  if (table.data.UNIQ && table.data.PROBDENSITY)
    return CredibleSkyMap.fromUniq(table.data.UNIQ as number[], table.data.PROBDENSITY as number[]);
  if (table.data.PROB) {
    if (String(table.header.ORDERING ?? '').trim() !== 'NESTED')
      throw new GwNoticeError(`sky map ordering "${String(table.header.ORDERING)}" is not supported (NESTED only)`);
    const order = Math.log2(Number(table.header.NSIDE));
    if (!Number.isInteger(order) || 12 * 4 ** order !== table.rows)
      throw new GwNoticeError(`NSIDE ${String(table.header.NSIDE)} does not fit ${table.rows} pixels`);
    return CredibleSkyMap.fromNested(order, table.data.PROB as number[]);
  }
  throw new GwNoticeError(`the sky map table has neither UNIQ/PROBDENSITY nor PROB columns (${table.columns.join(', ')})`);
}

/** The position of a sky map's densest pixel (for tests and the events page). */
export function skyMapPeak(map: CredibleSkyMap): { ra: number; dec: number } {
  const { order, pixel } = map.densestPixel;
  return healpixNestCenter(order, BigInt(pixel));
}

function isoTime(value: unknown, what: string): string {
  const time = typeof value === 'string' ? storableTime(value) : undefined;
  if (!time) throw new GwNoticeError(`${what} "${String(value)}" is not a time (ISO 8601, years ${TIME_YEARS.min} to ${TIME_YEARS.max})`);
  return time.toISOString();
}
