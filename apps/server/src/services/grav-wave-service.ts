import { type CredibleSkyMap, healpixNestCenter } from '@antares/astro';
import { storableTime } from '@antares/contract';
import type { GravWaveEventRow, GravWaveNoticeRow, Repositories } from '@antares/db';
import { GwNoticeError, ingestNotice, parseIgwnNotice, readSkyMap } from '@antares/pipeline';

import { badRequest, notFound } from '../errors.ts';

/** The events page draws maps at this HEALPix order: 49,152 pixels of about 0.9 degree. */
export const DRAW_ORDER = 6;
/** Parsed sky maps kept: a large NESTED map takes seconds to rank, and the events page asks for few. */
const CACHED_MAPS = 8;

export interface DrawnSkyMap {
  order: number;
  pixels: Array<{ ra: number; dec: number; probability_density: number; level: number }>;
  area50: number;
  area90: number;
}

/** Gravitational-wave notices (wire format) and events (the events page): lookups, ingestion, drawn maps. */
export class GravWaveService {
  /** By notice id, oldest first: the first key is the one evicted. */
  private readonly maps = new Map<number, CredibleSkyMap>();

  constructor(private readonly repos: Repositories) {}

  /** Stores an IGWN notice; `stored` is false when the same notice was already there. */
  async ingest(body: unknown): Promise<{ stored: boolean; notice: GravWaveNoticeRow }> {
    let notice;
    try {
      notice = parseIgwnNotice(body as Record<string, unknown>);
    } catch (error) {
      if (error instanceof GwNoticeError) throw badRequest(error.message);
      throw error;
    }
    const { stored } = await ingestNotice(this.repos, notice);
    const row = await this.repos.gravWaves.notice(notice.gracedb_id, new Date(notice.notice_datetime));
    return { stored, notice: row! };
  }

  /** The latest notice of each of the comma-separated GraceDB ids (those without notices left out). */
  async latestOf(idsText: string | undefined): Promise<GravWaveNoticeRow[]> {
    const ids = (idsText ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    if (ids.length === 0) throw badRequest('ids: give one or more GraceDB ids, comma-separated');
    return this.repos.gravWaves.latestNotices(ids);
  }

  async latest(gracedbId: string): Promise<GravWaveNoticeRow> {
    const notice = await this.repos.gravWaves.latestNotice(gracedbId);
    if (!notice) throw notFound(`No notice of "${gracedbId}"`);
    return notice;
  }

  async noticeAt(gracedbId: string, noticeDatetime: string): Promise<GravWaveNoticeRow> {
    const when = storableTime(noticeDatetime);
    if (!when) throw badRequest(`"${noticeDatetime}" is not a notice time`);
    const notice = await this.repos.gravWaves.notice(gracedbId, when);
    if (!notice) throw notFound(`No notice of "${gracedbId}" at ${noticeDatetime}`);
    return notice;
  }

  events(page: { limit: number; offset: number }) {
    return this.repos.gravWaves.listEvents(page);
  }

  async event(gracedbId: string): Promise<GravWaveEventRow> {
    const [event] = (await this.repos.gravWaves.listEvents({ limit: 1, offset: 0, ids: [gracedbId] })).rows;
    if (!event) throw notFound(`No gravitational-wave event "${gracedbId}"`);
    return event;
  }

  async lociOf(gracedbId: string, page: { limit: number; offset: number }) {
    await this.event(gracedbId);
    return this.repos.gravWaves.lociOf(gracedbId, page);
  }

  /** The event's sky map at DRAW_ORDER: each pixel's density and credible level, and the 50 % / 90 % areas. */
  async drawnSkyMap(gracedbId: string): Promise<DrawnSkyMap> {
    const event = await this.event(gracedbId);
    const notice = event.notice.skymap_base64
      ? event.notice
      : (await this.repos.gravWaves.activeNotices()).find((n) => n.gracedb_id === event.gracedb_id);
    if (!notice?.skymap_base64) throw notFound(`"${event.gracedb_id}" has no sky map`);
    const map = this.skyMap(notice.notice_id, notice.skymap_base64);
    const pixels: DrawnSkyMap['pixels'] = [];
    for (let p = 0; p < 12 * 4 ** DRAW_ORDER; p++) {
      const { ra, dec } = healpixNestCenter(DRAW_ORDER, BigInt(p));
      const region = map.regionAt(ra, dec);
      pixels.push({ ra, dec, probability_density: map.densityAt(ra, dec), level: region ? region.level : 1 });
    }
    return { order: DRAW_ORDER, pixels, area50: map.areaOf(0.5), area90: map.areaOf(0.9) };
  }

  private skyMap(noticeId: number, base64: string): CredibleSkyMap {
    let map = this.maps.get(noticeId);
    if (!map) {
      map = readSkyMap(Buffer.from(base64, 'base64'));
      if (this.maps.size >= CACHED_MAPS) this.maps.delete(this.maps.keys().next().value!);
      this.maps.set(noticeId, map);
    }
    return map;
  }
}
