import type { FastifyInstance } from 'fastify';

import { notFound } from '../../errors.ts';
import { policies } from '../../policies/index.ts';
import { listDocument } from '../../serializers/documents.ts';
import { watchListResource } from '../../serializers/watch-list.ts';
import { attributesOf, numericId } from '../../services/body.ts';
import { pageOf, type QueryParams, single, sparseFields } from '../../services/query-params.ts';
import { WatchListHistoryMatcher } from '../../services/watch-list-history.ts';
import { WatchListService } from '../../services/watch-list-service.ts';
import type { RouteContext } from '../context.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

/** 100,000 objects of about 100 bytes each in one request. */
const CREATE_BODY_LIMIT = 64 * 1024 * 1024;

export function watchListRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  // New lists (and lists a stop left unmatched) are matched against the stored alerts in the background.
  const history = new WatchListHistoryMatcher(repos, app.log);
  app.addHook('onReady', () => history.resume());
  app.addHook('onClose', () => history.stop());
  const lists = new WatchListService(repos, history);
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
    return listDocument(
      page.rows.map((l) => watchListResource(l)),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });

  app.get<{ Params: { id: string } }>('/v1/watch_lists/:id', async (request) => {
    const identity = await auth.require(request, 'get_watch_list');
    const { list, matchedLoci } = await lists.detail(idOf(request.params.id, 'watch list'), identity);
    // `fields[watch_list]` without objects: a page following the history matching asks for the state alone.
    const fields = sparseFields(request.query as QueryParams, 'watch_list');
    const objects = !fields || fields.has('objects') ? await repos.watchLists.objects(list.watch_list_id) : undefined;
    return { data: watchListResource(list, { objects, matchedLoci }, fields) };
  });

  app.delete<{ Params: { id: string } }>('/v1/watch_lists/:id', async (request, reply) => {
    const identity = await auth.require(request, 'delete_watch_list');
    await lists.delete(idOf(request.params.id, 'watch list'), identity);
    return reply.status(204).send();
  });
}
