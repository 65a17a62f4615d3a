import { createAnnouncement, listAnnouncements, updateAnnouncement } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { listDocument } from '../../serializers/documents.ts';
import { announcementResource } from '../../serializers/user.ts';
import { AnnouncementService } from '../../services/announcement-service.ts';
import { attributesOf } from '../../services/body.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

/** Announcements: anyone reads them (the banners), admins create and toggle them. */
export function announcementRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const announcements = new AnnouncementService(repos);

  route(app, auth, listAnnouncements, async (request) => {
    const { 'page[limit]': limit = 100, 'page[offset]': offset = 0, sort, filter } = request.query;
    const page = await announcements.list({ filter, sort, limit, offset });
    const base = baseUrl(request, config.publicUrl);
    return listDocument(page.rows.map(announcementResource), pageLinks(base, request, { offset, limit, count: page.count }));
  });

  route(app, auth, createAnnouncement, async (request, reply) =>
    reply.status(201).send({ data: announcementResource(await announcements.create(attributesOf(request.body))) }),
  );

  route(app, auth, updateAnnouncement, async (request) => {
    const row = await announcements.setActive(Number(request.params.id), request.params.id, attributesOf(request.body));
    return { data: announcementResource(row) };
  });
}
