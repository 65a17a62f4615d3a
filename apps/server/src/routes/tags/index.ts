import { getFilterRunner, getTag, listFilterRunner, listTags, updateFilterRunner } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { listDocument } from '../../serializers/documents.ts';
import { runnerResource, tagResource } from '../../serializers/filter.ts';
import { TagService } from '../../services/tag-service.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

/** Tags (from enabled public filters) and the filter runner (admins pause enabled filters). */
export function tagAndRunnerRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const tags = new TagService(repos, config.filterBudget);

  route(app, auth, listTags, async (request) => {
    const { 'page[limit]': limit = 100, 'page[offset]': offset = 0, sort } = request.query;
    const page = await tags.list({ sort, limit, offset });
    return listDocument(
      page.rows.map(tagResource),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });

  route(app, auth, getTag, async (request) => ({ data: tagResource(await tags.find(request.params.name)) }));

  route(app, auth, listFilterRunner, async (request) => {
    const { 'page[limit]': limit = 100, 'page[offset]': offset = 0, sort } = request.query;
    const page = await tags.runners({ sort, limit, offset });
    return listDocument(
      page.rows.map(runnerResource),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });

  route(app, auth, getFilterRunner, async (request) => ({ data: runnerResource(await tags.runner(request.params.name)) }));

  route(app, auth, updateFilterRunner, async (request) => ({
    data: runnerResource(await tags.setRunnerEnabled(request.params.name, request.body)),
  }));
}
