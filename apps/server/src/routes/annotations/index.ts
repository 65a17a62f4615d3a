import type { FastifyInstance } from 'fastify';

import { notFound } from '../../errors.ts';
import { listDocument } from '../../serializers/documents.ts';
import { annotationResource } from '../../serializers/user.ts';
import { AnnotationService } from '../../services/annotation-service.ts';
import { attributesOf, numericId, relationshipId } from '../../services/body.ts';
import { pageOf, type QueryParams } from '../../services/query-params.ts';
import type { RouteContext } from '../context.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

const ANNOTATION_PAGE_LIMIT = 1000;

export function annotationRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const annotations = new AnnotationService(repos);
  const idOf = (text: string, what: string) => {
    const id = numericId(text);
    if (id === null) throw notFound(`No ${what} with id "${text}"`);
    return id;
  };

  app.get<{ Params: { userId: string } }>('/v1/users/:userId/locus_annotations', async (request) => {
    const identity = await auth.require(request, 'list_locus_annotations');
    const { limit, offset } = pageOf(request.query as QueryParams, ANNOTATION_PAGE_LIMIT);
    const page = await annotations.listOf(identity, idOf(request.params.userId, 'user'), { limit, offset });
    const base = baseUrl(request, config.publicUrl);
    return listDocument(
      page.rows.map((a) => annotationResource(base, a)),
      pageLinks(base, request, { offset, limit, count: page.count }),
    );
  });

  app.post<{ Params: { userId: string } }>('/v1/users/:userId/locus_annotations', async (request, reply) => {
    const identity = await auth.require(request, 'create_locus_annotation');
    const row = await annotations.create(
      identity,
      idOf(request.params.userId, 'user'),
      relationshipId(request.body, 'locus'),
      attributesOf(request.body),
    );
    return reply.status(201).send({ data: annotationResource(baseUrl(request, config.publicUrl), row) });
  });

  app.post('/v1/locus_annotations', async (request, reply) => {
    const identity = await auth.require(request, 'create_locus_annotation');
    const ownerText = relationshipId(request.body, 'owner');
    const ownerId = ownerText === undefined ? identity.user.user_id : idOf(ownerText, 'user');
    const row = await annotations.create(identity, ownerId, relationshipId(request.body, 'locus'), attributesOf(request.body));
    return reply.status(201).send({ data: annotationResource(baseUrl(request, config.publicUrl), row) });
  });

  app.patch<{ Params: { annotationId: string } }>('/v1/locus_annotations/:annotationId', async (request) => {
    const identity = await auth.require(request, 'update_locus_annotation');
    const row = await annotations.update(identity, idOf(request.params.annotationId, 'locus annotation'), attributesOf(request.body));
    return { data: annotationResource(baseUrl(request, config.publicUrl), row) };
  });

  for (const [method, favorited] of [
    ['POST', true],
    ['DELETE', false],
  ] as const) {
    app.route<{ Params: { userId: string } }>({
      method,
      url: '/v1/users/:userId/relationships/favorite_loci',
      handler: async (request, reply) => {
        const identity = await auth.require(request, favorited ? 'add_favorite_loci' : 'remove_favorite_loci');
        await annotations.setFavorites(identity, idOf(request.params.userId, 'user'), request.body, favorited);
        return reply.status(204).send();
      },
    });
  }
}
