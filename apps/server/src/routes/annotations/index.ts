import {
  addFavoriteLoci,
  ANNOTATION_PAGE_LIMIT,
  createLocusAnnotation,
  createUserLocusAnnotation,
  listLocusAnnotations,
  removeFavoriteLoci,
  updateLocusAnnotation,
} from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { listDocument } from '../../serializers/documents.ts';
import { annotationResource } from '../../serializers/user.ts';
import { AnnotationService } from '../../services/annotation-service.ts';
import { attributesOf, relationshipId } from '../../services/body.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

/** Locus annotations (comments and favorites), changed only by their owner. */
export function annotationRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const annotations = new AnnotationService(repos);

  route(app, auth, listLocusAnnotations, async (request, _reply, identity) => {
    const { 'page[limit]': limit = ANNOTATION_PAGE_LIMIT, 'page[offset]': offset = 0 } = request.query;
    const page = await annotations.listOf(identity, Number(request.params.userId), { limit, offset });
    const base = baseUrl(request, config.publicUrl);
    return listDocument(
      page.rows.map((a) => annotationResource(base, a)),
      pageLinks(base, request, { offset, limit, count: page.count }),
    );
  });

  route(app, auth, createUserLocusAnnotation, async (request, reply, identity) => {
    const row = await annotations.create(
      identity,
      Number(request.params.userId),
      relationshipId(request.body, 'locus'),
      attributesOf(request.body),
    );
    return reply.status(201).send({ data: annotationResource(baseUrl(request, config.publicUrl), row) });
  });

  route(app, auth, createLocusAnnotation, async (request, reply, identity) => {
    const row = await annotations.createForOwnerOf(identity, request.body);
    return reply.status(201).send({ data: annotationResource(baseUrl(request, config.publicUrl), row) });
  });

  route(app, auth, updateLocusAnnotation, async (request, _reply, identity) => {
    const row = await annotations.update(identity, Number(request.params.annotationId), attributesOf(request.body));
    return { data: annotationResource(baseUrl(request, config.publicUrl), row) };
  });

  for (const [endpoint, favorited] of [
    [addFavoriteLoci, true],
    [removeFavoriteLoci, false],
  ] as const) {
    route(app, auth, endpoint, async (request, reply, identity) => {
      await annotations.setFavorites(identity, Number(request.params.userId), request.body, favorited);
      return reply.status(204).send();
    });
  }
}
