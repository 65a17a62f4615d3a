import type { ResourceObject } from '@antares/contract';
import type { GravWaveEventRow, GravWaveNoticeRow } from '@antares/db';

import type { DrawnSkyMap } from '../services/grav-wave-service.ts';

/** A `grav_wave_notice` (wire format): the IGWN alert as received, its sky map base64 FITS. */
export function gravWaveNoticeResource(notice: GravWaveNoticeRow): ResourceObject {
  const event = notice.full_notice.event as Record<string, unknown> | null | undefined;
  const full =
    event && notice.skymap_base64 ? { ...notice.full_notice, event: { ...event, skymap: notice.skymap_base64 } } : notice.full_notice;
  return {
    type: 'grav_wave_notice',
    id: String(notice.notice_id),
    attributes: {
      gracedb_id: notice.gracedb_id,
      notice_type: notice.notice_type,
      notice_datetime: notice.notice_datetime.toISOString(),
      event_datetime: notice.event_datetime?.toISOString() ?? null,
      false_alarm_rate: notice.false_alarm_rate,
      skymap_base64: notice.skymap_base64,
      external_coinc: notice.external_coinc ?? null,
      full_notice: full,
      version_id: notice.version_id,
    },
  };
}

export function gravWaveEventResource(event: GravWaveEventRow): ResourceObject {
  return {
    type: 'grav_wave_event',
    id: event.gracedb_id,
    attributes: {
      gracedb_id: event.gracedb_id,
      event_datetime: event.event_datetime?.toISOString() ?? null,
      notice_type: event.notice.notice_type,
      notice_datetime: event.notice.notice_datetime.toISOString(),
      retracted: event.retracted,
      false_alarm_rate: event.notice.false_alarm_rate,
      area50: event.notice.area50,
      area90: event.notice.area90,
      loci_count: event.loci_count,
    },
  };
}

/** The events page's drawing of an event's sky map (`/v1/grav_wave_events/{id}/skymap`). */
export function gravWaveSkyMapResource(gracedbId: string, map: DrawnSkyMap): ResourceObject {
  return { type: 'grav_wave_skymap', id: gracedbId, attributes: { ...map } };
}

/** One locus associated with an event (`/v1/grav_wave_events/{id}/loci`). */
export function gravWaveLocusResource(row: { locus_id: string } & Record<string, unknown>): ResourceObject {
  return { type: 'grav_wave_locus', id: row.locus_id, attributes: { ...row } };
}
