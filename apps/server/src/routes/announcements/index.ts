import type { FastifyInstance } from 'fastify';

import { listDocument } from '../../serializers/documents.ts';
import { announcementResource } from '../../serializers/user.ts';
import { AnnouncementService } from '../../services/announcement-service.ts';
import { attributesOf, numericId } from '../../services/body.ts';
import { pageOf, parseJsonParam, type QueryParams, single } from '../../services/query-params.ts';
import type { RouteContext } from '../context.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

/** Announcements: anyone reads them (the banners), admins create and toggle them. */
export function announcementRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const announcements = new AnnouncementService(repos);

  app.get('/v1/announcements', async (request) => {
    const query = request.query as QueryParams;
    const { limit, offset } = pageOf(query, 100);
    const page = await announcements.list({ filter: parseJsonParam(query, 'filter'), sort: single(query, 'sort'), limit, offset });
    const base = baseUrl(request, config.publicUrl);
    return listDocument(page.rows.map(announcementResource), pageLinks(base, request, { offset, limit, count: page.count }));
  });

  app.post('/v1/announcements', async (request, reply) => {
    await auth.requireAdmin(request, 'create_announcement');
    return reply.status(201).send({ data: announcementResource(await announcements.create(attributesOf(request.body))) });
  });

  app.patch<{ Params: { id: string } }>('/v1/announcements/:id', async (request) => {
    await auth.requireAdmin(request, 'update_announcement');
    const row = await announcements.setActive(numericId(request.params.id), request.params.id, attributesOf(request.body));
    return { data: announcementResource(row) };
  });
}
