import type { FastifyInstance } from 'fastify';

import { listDocument } from '../../serializers/documents.ts';
import {
  gravWaveEventResource,
  gravWaveLocusResource,
  gravWaveNoticeResource,
  gravWaveSkyMapResource,
} from '../../serializers/grav-wave.ts';
import { GravWaveService } from '../../services/grav-wave-service.ts';
import { pageOf, type QueryParams, single } from '../../services/query-params.ts';
import type { RouteContext } from '../context.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

/** Notices carry their sky map inline (about 1 MB base64). */
const NOTICE_BODY_LIMIT = 32 * 1024 * 1024;

/** Gravitational-wave notices (wire format) and events (the events page). */
export function gravWaveRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const gravWaves = new GravWaveService(repos);

  app.post('/v1/grav_wave_notices', { bodyLimit: NOTICE_BODY_LIMIT }, async (request, reply) => {
    await auth.requireAdmin(request, 'create_grav_wave_notice');
    const { stored, notice } = await gravWaves.ingest(request.body);
    return reply.status(stored ? 201 : 200).send({ data: gravWaveNoticeResource(notice) });
  });

  app.get('/v1/grav_wave_notices/latest', async (request) => {
    const notices = await gravWaves.latestOf(single(request.query as QueryParams, 'ids'));
    return { data: notices.map(gravWaveNoticeResource), meta: { count: notices.length } };
  });

  app.get<{ Params: { gracedbId: string } }>('/v1/grav_wave_notices/:gracedbId/latest', async (request) => ({
    data: gravWaveNoticeResource(await gravWaves.latest(request.params.gracedbId)),
  }));

  app.get<{ Params: { gracedbId: string; noticeDatetime: string } }>(
    '/v1/grav_wave_notices/:gracedbId/:noticeDatetime',
    async (request) => ({
      data: gravWaveNoticeResource(await gravWaves.noticeAt(request.params.gracedbId, request.params.noticeDatetime)),
    }),
  );

  app.get('/v1/grav_wave_events', async (request) => {
    const { limit, offset } = pageOf(request.query as QueryParams, 25);
    const page = await gravWaves.events({ limit, offset });
    return listDocument(
      page.rows.map(gravWaveEventResource),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });

  app.get<{ Params: { gracedbId: string } }>('/v1/grav_wave_events/:gracedbId', async (request) => ({
    data: gravWaveEventResource(await gravWaves.event(request.params.gracedbId)),
  }));

  app.get<{ Params: { gracedbId: string } }>('/v1/grav_wave_events/:gracedbId/skymap', async (request) => ({
    data: gravWaveSkyMapResource(request.params.gracedbId, await gravWaves.drawnSkyMap(request.params.gracedbId)),
  }));

  app.get<{ Params: { gracedbId: string } }>('/v1/grav_wave_events/:gracedbId/loci', async (request) => {
    const { limit, offset } = pageOf(request.query as QueryParams, 25);
    const page = await gravWaves.lociOf(request.params.gracedbId, { limit, offset });
    return listDocument(
      page.rows.map(gravWaveLocusResource),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });
}
