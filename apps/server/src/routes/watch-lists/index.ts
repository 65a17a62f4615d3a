import { createWatchList, deleteWatchList, getWatchList, listWatchLists } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { listDocument } from '../../serializers/documents.ts';
import { watchListResource } from '../../serializers/watch-list.ts';
import { attributesOf } from '../../services/body.ts';
import { WatchListHistoryMatcher } from '../../services/watch-list-history.ts';
import { WatchListService } from '../../services/watch-list-service.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

export function watchListRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  // New lists (and lists a stop left unmatched) are matched against the stored alerts in the background.
  const history = new WatchListHistoryMatcher(repos, app.log);
  app.addHook('onReady', () => history.resume());
  app.addHook('onClose', () => history.stop());
  const lists = new WatchListService(repos, history);

  route(app, auth, createWatchList, async (request, reply, identity) => {
    const list = await lists.create(identity, Number(request.params.userId), attributesOf(request.body));
    return reply.status(201).send({ data: watchListResource(list) });
  });

  route(app, auth, listWatchLists, async (request, _reply, identity) => {
    const { 'page[limit]': limit = 25, 'page[offset]': offset = 0, sort } = request.query;
    const page = await lists.listOf(identity, Number(request.params.userId), { sort, limit, offset });
    return listDocument(
      page.rows.map((l) => watchListResource(l)),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });

  route(app, auth, getWatchList, async (request, _reply, identity) => {
    // `fields[watch_list]` without objects: a page following the history matching asks for the state alone.
    const asked = request.query['fields[watch_list]'];
    const fields =
      asked === undefined
        ? undefined
        : new Set(
            asked
              .split(',')
              .map((field) => field.trim())
              .filter(Boolean),
          );
    const { list, matchedLoci, objects } = await lists.detail(Number(request.params.id), identity, !fields || fields.has('objects'));
    return { data: watchListResource(list, { objects, matchedLoci }, fields) };
  });

  route(app, auth, deleteWatchList, async (request, reply, identity) => {
    await lists.delete(Number(request.params.id), identity);
    return reply.status(204).send();
  });
}
