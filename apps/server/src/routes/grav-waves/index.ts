import type { FastifyInstance } from 'fastify';
import { GwNoticeError, ingestNotice, parseIgwnNotice, readSkyMap } from '@antares/pipeline';
import { healpixNestCenter, type CredibleSkyMap } from '@antares/astro';
import { storableTime } from '@antares/contract';
import type { RouteContext } from '../context.ts';
import { pageOf, single, type QueryParams } from '../../services/query-params.ts';
import { baseUrl, pageLinks } from '../../services/request-url.ts';
import { listDocument } from '../../serializers/documents.ts';
import { gravWaveEventResource, gravWaveNoticeResource } from '../../serializers/grav-wave.ts';
import { badRequest, notFound } from '../../errors.ts';

/** Notices carry their sky map inline (about 1 MB base64). */
const NOTICE_BODY_LIMIT = 32 * 1024 * 1024;
/** The events page draws maps at this HEALPix order: 49,152 pixels of about 0.9 degree. */
const DRAW_ORDER = 6;

/** Gravitational-wave notices (wire format) and events (the events page). */
export function gravWaveRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  // Parsed sky maps of recent notices: a large NESTED map takes seconds to rank.
  const maps = new Map<number, CredibleSkyMap>();
  const mapOf = (noticeId: number, base64: string) => {
    let map = maps.get(noticeId);
    if (!map) {
      map = readSkyMap(Buffer.from(base64, 'base64'));
      if (maps.size >= 8) maps.delete(maps.keys().next().value!);
      maps.set(noticeId, map);
    }
    return map;
  };

  app.post('/v1/grav_wave_notices', { bodyLimit: NOTICE_BODY_LIMIT }, async (request, reply) => {
    await auth.requireAdmin(request, 'create_grav_wave_notice');
    let notice;
    try {
      notice = parseIgwnNotice(request.body as Record<string, unknown>);
    } catch (error) {
      if (error instanceof GwNoticeError) throw badRequest(error.message);
      throw error;
    }
    const { stored } = await ingestNotice(repos, notice);
    const row = await repos.gravWaves.notice(notice.gracedb_id, new Date(notice.notice_datetime));
    return reply.status(stored ? 201 : 200).send({ data: gravWaveNoticeResource(row!) });
  });

  app.get('/v1/grav_wave_notices/latest', async (request) => {
    const ids = (single(request.query as QueryParams, 'ids') ?? '').split(',').map((id) => id.trim()).filter(Boolean);
    if (ids.length === 0) throw badRequest('ids: give one or more GraceDB ids, comma-separated');
    const notices = await repos.gravWaves.latestNotices(ids);
    return { data: notices.map(gravWaveNoticeResource), meta: { count: notices.length } };
  });

  app.get<{ Params: { gracedbId: string } }>('/v1/grav_wave_notices/:gracedbId/latest', async (request) => {
    const notice = await repos.gravWaves.latestNotice(request.params.gracedbId);
    if (!notice) throw notFound(`No notice of "${request.params.gracedbId}"`);
    return { data: gravWaveNoticeResource(notice) };
  });

  app.get<{ Params: { gracedbId: string; noticeDatetime: string } }>('/v1/grav_wave_notices/:gracedbId/:noticeDatetime', async (request) => {
    const when = storableTime(request.params.noticeDatetime);
    if (!when) throw badRequest(`"${request.params.noticeDatetime}" is not a notice time`);
    const notice = await repos.gravWaves.notice(request.params.gracedbId, when);
    if (!notice) throw notFound(`No notice of "${request.params.gracedbId}" at ${request.params.noticeDatetime}`);
    return { data: gravWaveNoticeResource(notice) };
  });

  app.get('/v1/grav_wave_events', async (request) => {
    const { limit, offset } = pageOf(request.query as QueryParams, 25);
    const page = await repos.gravWaves.listEvents({ limit, offset });
    return listDocument(page.rows.map(gravWaveEventResource), pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }));
  });

  const eventOf = async (id: string) => {
    const [event] = (await repos.gravWaves.listEvents({ limit: 1, offset: 0, ids: [id] })).rows;
    if (!event) throw notFound(`No gravitational-wave event "${id}"`);
    return event;
  };

  app.get<{ Params: { gracedbId: string } }>('/v1/grav_wave_events/:gracedbId', async (request) => ({ data: gravWaveEventResource(await eventOf(request.params.gracedbId)) }));

  app.get<{ Params: { gracedbId: string } }>('/v1/grav_wave_events/:gracedbId/skymap', async (request) => {
    const event = await eventOf(request.params.gracedbId);
    const notice = event.notice.skymap_base64 ? event.notice : (await repos.gravWaves.activeNotices()).find((n) => n.gracedb_id === event.gracedb_id);
    if (!notice?.skymap_base64) throw notFound(`"${event.gracedb_id}" has no sky map`);
    const map = mapOf(notice.notice_id, notice.skymap_base64);
    const pixels = [];
    for (let p = 0; p < 12 * 4 ** DRAW_ORDER; p++) {
      const { ra, dec } = healpixNestCenter(DRAW_ORDER, BigInt(p));
      const region = map.regionAt(ra, dec);
      pixels.push({ ra, dec, probability_density: map.densityAt(ra, dec), level: region ? region.level : 1 });
    }
    return { data: { type: 'grav_wave_skymap', id: event.gracedb_id, attributes: { order: DRAW_ORDER, pixels, area50: map.areaOf(0.5), area90: map.areaOf(0.9) } } };
  });

  app.get<{ Params: { gracedbId: string } }>('/v1/grav_wave_events/:gracedbId/loci', async (request) => {
    await eventOf(request.params.gracedbId);
    const { limit, offset } = pageOf(request.query as QueryParams, 25);
    const page = await repos.gravWaves.lociOf(request.params.gracedbId, { limit, offset });
    return listDocument(page.rows.map((r) => ({ type: 'grav_wave_locus', id: r.locus_id, attributes: { ...r } })),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }));
  });
}
