import type { FastifyInstance } from 'fastify';

import { listDocument } from '../../serializers/documents.ts';
import { runnerResource, tagResource } from '../../serializers/filter.ts';
import { pageOf, type QueryParams, single } from '../../services/query-params.ts';
import { baseUrl, pageLinks } from '../../services/request-url.ts';
import { TagService } from '../../services/tag-service.ts';
import type { RouteContext } from '../context.ts';

/** Tags (from enabled public filters) and the filter runner (admins pause enabled filters). */
export function tagAndRunnerRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const tags = new TagService(repos);

  app.get('/v1/tags', async (request) => {
    const query = request.query as QueryParams;
    const { limit, offset } = pageOf(query, 100);
    const page = await tags.list({ sort: single(query, 'sort'), limit, offset });
    return listDocument(
      page.rows.map(tagResource),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });

  app.get<{ Params: { name: string } }>('/v1/tags/:name', async (request) => ({ data: tagResource(await tags.find(request.params.name)) }));

  app.get('/v1/filter_runner', async (request) => {
    const query = request.query as QueryParams;
    const { limit, offset } = pageOf(query, 100);
    const page = await tags.runners({ sort: single(query, 'sort'), limit, offset });
    return listDocument(
      page.rows.map(runnerResource),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });

  app.patch<{ Params: { name: string } }>('/v1/filter_runner/:name', async (request) => {
    await auth.requireAdmin(request, 'update_filter_runner');
    return { data: runnerResource(await tags.setRunnerEnabled(request.params.name, request.body)) };
  });
}
