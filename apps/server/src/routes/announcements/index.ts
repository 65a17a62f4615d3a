import type { FastifyInstance } from 'fastify';
import { ANNOUNCEMENT_VARIANTS, LIMITS, MESSAGES } from '@antares/contract';
import type { RouteContext } from '../context.ts';
import { attributesOf, booleanField, numericId, stringField } from '../../services/body.ts';
import { pageOf, parseJsonParam, single, type QueryParams } from '../../services/query-params.ts';
import { baseUrl, pageLinks } from '../../services/request-url.ts';
import { listDocument } from '../../serializers/documents.ts';
import { announcementResource } from '../../serializers/user.ts';
import { badRequest, notFound } from '../../errors.ts';

export function announcementRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  app.get('/v1/announcements', async (request) => {
    const query = request.query as QueryParams;
    const { limit, offset } = pageOf(query, 100);
    const page = await repos.announcements.list({ filter: parseJsonParam(query, 'filter'), sort: single(query, 'sort') || '-active', limit, offset });
    const base = baseUrl(request, config.publicUrl);
    return listDocument(page.rows.map(announcementResource), pageLinks(base, request, { offset, limit, count: page.count }));
  });

  app.post('/v1/announcements', async (request, reply) => {
    await auth.requireAdmin(request, 'create_announcement');
    const attributes = attributesOf(request.body);
    const message = (stringField(attributes, 'message') ?? '').trim();
    if (message === '') throw badRequest(`message: ${MESSAGES.required}`);
    if (message.length > LIMITS.announcementMessageMax) throw badRequest(`message: ${MESSAGES.maxLength(LIMITS.announcementMessageMax)}`);
    const variant = stringField(attributes, 'variant') ?? 'info';
    if (!(ANNOUNCEMENT_VARIANTS as readonly string[]).includes(variant)) {
      throw badRequest(`variant must be one of ${ANNOUNCEMENT_VARIANTS.join(', ')}`);
    }
    const row = await repos.announcements.create({ message, variant, active: booleanField(attributes, 'active') ?? false });
    return reply.status(201).send({ data: announcementResource(row) });
  });

  app.patch<{ Params: { id: string } }>('/v1/announcements/:id', async (request) => {
    await auth.requireAdmin(request, 'update_announcement');
    const id = numericId(request.params.id);
    const active = booleanField(attributesOf(request.body), 'active');
    if (active === undefined) throw badRequest('active: Field is required.');
    const row = id === null ? undefined : await repos.announcements.update(id, { active });
    if (!row) throw notFound(`No announcement with id "${request.params.id}"`);
    return { data: announcementResource(row) };
  });
}
