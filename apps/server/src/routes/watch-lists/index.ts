import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../context.ts';
import { WatchListService } from '../../services/watch-list-service.ts';
import { attributesOf, numericId } from '../../services/body.ts';
import { pageOf, single, type QueryParams } from '../../services/query-params.ts';
import { baseUrl, pageLinks } from '../../services/request-url.ts';
import { listDocument } from '../../serializers/documents.ts';
import { watchListResource } from '../../serializers/watch-list.ts';
import { policies } from '../../policies/index.ts';
import { notFound } from '../../errors.ts';

/** 100,000 objects of about 100 bytes each in one request. */
const CREATE_BODY_LIMIT = 64 * 1024 * 1024;

export function watchListRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const lists = new WatchListService(repos);
  const idOf = (text: string, what: string) => {
    const id = numericId(text);
    if (id === null) throw notFound(`No ${what} with id "${text}"`);
    return id;
  };

  app.post<{ Params: { userId: string } }>('/v1/users/:userId/watch_lists', { bodyLimit: CREATE_BODY_LIMIT }, async (request, reply) => {
    const identity = await auth.require(request, 'create_watch_list');
    const list = await lists.create(identity, idOf(request.params.userId, 'user'), attributesOf(request.body));
    return reply.status(201).send({ data: watchListResource(list) });
  });

  app.get<{ Params: { userId: string } }>('/v1/users/:userId/watch_lists', async (request) => {
    const identity = await auth.require(request, 'list_watch_lists');
    const ownerId = idOf(request.params.userId, 'user');
    policies.assertSelfOrAdmin(identity, ownerId, 'the watch lists');
    const query = request.query as QueryParams;
    const { limit, offset } = pageOf(query, 25);
    const page = await repos.watchLists.listByUser(ownerId, { sort: single(query, 'sort') || '-created_at', limit, offset });
    return listDocument(page.rows.map((l) => watchListResource(l)), pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }));
  });

  app.get<{ Params: { id: string } }>('/v1/watch_lists/:id', async (request) => {
    const identity = await auth.require(request, 'get_watch_list');
    const list = await lists.readable(idOf(request.params.id, 'watch list'), identity);
    return { data: watchListResource(list, await repos.watchLists.objects(list.watch_list_id)) };
  });

  app.delete<{ Params: { id: string } }>('/v1/watch_lists/:id', async (request, reply) => {
    const identity = await auth.require(request, 'delete_watch_list');
    await lists.delete(idOf(request.params.id, 'watch list'), identity);
    return reply.status(204).send();
  });
}
