import { CredibleSkyMap, dateToMjd } from '@antares/astro';
import type { GravWaveAssociation, GravWaveNoticeRow, Repositories } from '@antares/db';

import { type GwNotice, readSkyMap } from './notice.ts';

/** Alerts observed this many days after an event can be associated with it. */
export const DEFAULT_GW_WINDOW_DAYS = 14;
/** Inside the 90% credible region. */
const MAX_LEVEL = 0.9;

interface ActiveEvent {
  gracedbId: string;
  noticeId: number;
  eventMjd: number;
  map: CredibleSkyMap;
}

/** Where a position and time stand against one event's sky map; null when not associated. */
function associate(event: ActiveEvent, ra: number, dec: number, mjd: number, windowDays: number): GravWaveAssociation | null {
  const after = mjd - event.eventMjd;
  if (after < 0 || after > windowDays) return null;
  const region = event.map.regionAt(ra, dec);
  if (!region || region.level > MAX_LEVEL) return null;
  return { gracedb_id: event.gracedbId, contour_level: region.level * 100, contour_area: region.areaDeg2 };
}

/**
 * The GW stage of ingestion: the sky maps of the events that are not retracted, reloaded when a
 * notice arrives (one cheap query per batch); a new detection observed within the window after an
 * event and inside its 90% region is associated with it.
 */
export class GwMatcher {
  private events: ActiveEvent[] = [];
  private loadedVersion = '';
  private readonly maps = new Map<number, CredibleSkyMap>();

  constructor(readonly windowDays = DEFAULT_GW_WINDOW_DAYS) {}

  get activeEvents(): number {
    return this.events.length;
  }

  async refresh(repos: Repositories): Promise<void> {
    const version = await repos.gravWaves.version();
    if (version === this.loadedVersion) return;
    const notices = await repos.gravWaves.activeNotices();
    this.events = notices
      .filter((n) => n.event_datetime)
      .map((n) => ({
        gracedbId: n.gracedb_id,
        noticeId: n.notice_id,
        eventMjd: dateToMjd(n.event_datetime!),
        map: this.mapOf(n),
      }));
    this.loadedVersion = version;
  }

  private mapOf(notice: GravWaveNoticeRow): CredibleSkyMap {
    let map = this.maps.get(notice.notice_id);
    if (!map) {
      map = readSkyMap(Buffer.from(notice.skymap_base64!, 'base64'));
      this.maps.set(notice.notice_id, map);
    }
    return map;
  }

  match(ra: number, dec: number, mjd: number): GravWaveAssociation[] {
    const found: GravWaveAssociation[] = [];
    for (const event of this.events) {
      const association = associate(event, ra, dec, mjd, this.windowDays);
      if (association) found.push(association);
    }
    return found;
  }
}

/**
 * Stores a notice and brings the event's associations up to date: a new sky map re-evaluates every
 * detection in the window after the event; a retraction removes them all. A notice stored before
 * changes nothing. Returns whether it was new and how many alerts are now associated.
 */
export async function ingestNotice(
  repos: Repositories,
  notice: GwNotice,
  windowDays = DEFAULT_GW_WINDOW_DAYS,
): Promise<{ stored: boolean; associated: number }> {
  const stored = await repos.gravWaves.addNotice({
    gracedb_id: notice.gracedb_id,
    notice_type: notice.notice_type,
    notice_datetime: new Date(notice.notice_datetime),
    event_datetime: notice.event_datetime ? new Date(notice.event_datetime) : null,
    false_alarm_rate: notice.false_alarm_rate,
    skymap_base64: notice.skymap_fits ? notice.skymap_fits.toString('base64') : null,
    area50: notice.skymap?.areaOf(0.5) ?? null,
    area90: notice.skymap?.areaOf(0.9) ?? null,
    external_coinc: notice.external_coinc,
    full_notice: withoutSkymap(notice.full_notice),
  });
  if (!stored) return { stored: false, associated: 0 };
  const latest = await repos.gravWaves.latestNotice(notice.gracedb_id);
  if (!latest || latest.notice_type === 'RETRACTION') {
    await repos.gravWaves.replaceAssociations(notice.gracedb_id, []);
    return { stored: true, associated: 0 };
  }
  // A late-arriving older notice leaves the current map in charge.
  if (latest.notice_id !== stored.notice_id || !notice.skymap || !notice.event_datetime) return { stored: true, associated: 0 };
  const event: ActiveEvent = {
    gracedbId: notice.gracedb_id,
    noticeId: stored.notice_id,
    eventMjd: dateToMjd(new Date(notice.event_datetime)),
    map: notice.skymap,
  };
  const associations = [];
  for (const d of await repos.gravWaves.detectionsBetween(event.eventMjd, event.eventMjd + windowDays)) {
    const association = associate(event, d.ra, d.dec, d.mjd, windowDays);
    if (association) associations.push({ alert_id: d.alert_id, locus_id: d.locus_id, ...association });
  }
  await repos.gravWaves.replaceAssociations(notice.gracedb_id, associations);
  return { stored: true, associated: associations.length };
}

/** The notice as kept: its sky map is stored once, apart. */
function withoutSkymap(notice: Record<string, unknown>): Record<string, unknown> {
  const event = notice.event as Record<string, unknown> | null | undefined;
  if (!event || typeof event !== 'object' || !('skymap' in event)) return notice;
  const { skymap: _skymap, ...rest } = event;
  return { ...notice, event: rest };
}
