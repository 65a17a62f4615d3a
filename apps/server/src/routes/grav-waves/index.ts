import {
  createGravWaveNotice,
  getGravWaveEvent,
  getGravWaveNotice,
  getGravWaveSkyMap,
  latestGravWaveNotice,
  latestGravWaveNotices,
  listGravWaveEvents,
  listGravWaveLoci,
} from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { listDocument } from '../../serializers/documents.ts';
import {
  gravWaveEventResource,
  gravWaveLocusResource,
  gravWaveNoticeResource,
  gravWaveSkyMapResource,
} from '../../serializers/grav-wave.ts';
import { GravWaveService } from '../../services/grav-wave-service.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

/** Gravitational-wave notices (wire format) and events (the events page). */
export function gravWaveRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const gravWaves = new GravWaveService(repos);

  route(app, auth, createGravWaveNotice, async (request, reply) => {
    const { stored, notice } = await gravWaves.ingest(request.body);
    return reply.status(stored ? 201 : 200).send({ data: gravWaveNoticeResource(notice) });
  });

  route(app, auth, latestGravWaveNotices, async (request) => {
    const notices = await gravWaves.latestOf(request.query.ids);
    return { data: notices.map(gravWaveNoticeResource), meta: { count: notices.length } };
  });

  route(app, auth, latestGravWaveNotice, async (request) => ({
    data: gravWaveNoticeResource(await gravWaves.latest(request.params.gracedbId)),
  }));

  route(app, auth, getGravWaveNotice, async (request) => ({
    data: gravWaveNoticeResource(await gravWaves.noticeAt(request.params.gracedbId, request.params.noticeDatetime)),
  }));

  route(app, auth, listGravWaveEvents, async (request) => {
    const { 'page[limit]': limit = 25, 'page[offset]': offset = 0 } = request.query;
    const page = await gravWaves.events({ limit, offset });
    return listDocument(
      page.rows.map(gravWaveEventResource),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });

  route(app, auth, getGravWaveEvent, async (request) => ({
    data: gravWaveEventResource(await gravWaves.event(request.params.gracedbId)),
  }));

  route(app, auth, getGravWaveSkyMap, async (request) => ({
    data: gravWaveSkyMapResource(request.params.gracedbId, await gravWaves.drawnSkyMap(request.params.gracedbId)),
  }));

  route(app, auth, listGravWaveLoci, async (request) => {
    const { 'page[limit]': limit = 25, 'page[offset]': offset = 0 } = request.query;
    const page = await gravWaves.lociOf(request.params.gracedbId, { limit, offset });
    return listDocument(
      page.rows.map(gravWaveLocusResource),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });
}
