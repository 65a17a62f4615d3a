import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../context.ts';
import { attributesOf, booleanField } from '../../services/body.ts';
import { pageOf, single, type QueryParams } from '../../services/query-params.ts';
import { baseUrl, pageLinks } from '../../services/request-url.ts';
import { listDocument } from '../../serializers/documents.ts';
import { runnerResource, tagResource } from '../../serializers/filter.ts';
import { badRequest, notFound } from '../../errors.ts';

/** Tags (from enabled public filters) and the filter runner (admins pause enabled filters). */
export function tagAndRunnerRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  app.get('/v1/tags', async (request) => {
    const query = request.query as QueryParams;
    const { limit, offset } = pageOf(query, 100);
    const page = await repos.tags.list({ sort: single(query, 'sort') || '-id', limit, offset });
    return listDocument(page.rows.map(tagResource), pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }));
  });

  app.get<{ Params: { name: string } }>('/v1/tags/:name', async (request) => {
    const tag = await repos.tags.find(request.params.name);
    if (!tag) throw notFound(`No tag named "${request.params.name}"`);
    return { data: tagResource(tag) };
  });

  app.get('/v1/filter_runner', async (request) => {
    const query = request.query as QueryParams;
    const { limit, offset } = pageOf(query, 100);
    const page = await repos.filters.listRunnable({ sort: single(query, 'sort') || '-id', limit, offset });
    return listDocument(page.rows.map(runnerResource), pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }));
  });

  app.patch<{ Params: { name: string } }>('/v1/filter_runner/:name', async (request) => {
    await auth.requireAdmin(request, 'update_filter_runner');
    const enabled = booleanField(attributesOf(request.body), 'enabled');
    if (enabled === undefined) throw badRequest('enabled: Field is required.');
    const filter = await repos.filters.findByName(request.params.name);
    if (!filter || filter.enabled_version_id === null) throw notFound(`No enabled filter named "${request.params.name}"`);
    return { data: runnerResource((await repos.filters.update(filter.filter_id, { runner_enabled: enabled }))!) };
  });
}
