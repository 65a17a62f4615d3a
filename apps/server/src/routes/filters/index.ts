import type { UserRow } from '@antares/db';
import type { FastifyInstance } from 'fastify';

import type { Identity } from '../../auth/authenticator.ts';
import { badRequest, notFound } from '../../errors.ts';
import { policies } from '../../policies/index.ts';
import { listDocument } from '../../serializers/documents.ts';
import { filterResource, filterTestResource, filterVersionResource, includedOwners } from '../../serializers/filter.ts';
import { attributesOf, booleanField, numericId } from '../../services/body.ts';
import { FilterService } from '../../services/filter-service.ts';
import { FilterTestService } from '../../services/filter-test-service.ts';
import { pageOf, type QueryParams, single } from '../../services/query-params.ts';
import { SandboxTurns } from '../../services/sandbox-turns.ts';
import type { RouteContext } from '../context.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

const VERSION_PAGE_LIMIT = 100;

/** Filters and their versions; reads are optional-auth (private filters only for owner and admins). */
export function filterRoutes(app: FastifyInstance, { auth, repos, config, filterSandbox }: RouteContext): void {
  const turns = new SandboxTurns();
  const filters = new FilterService(repos, filterSandbox, turns);
  const tests = new FilterTestService(repos, filterSandbox, turns);
  const idOf = (text: string, what: string) => {
    const id = numericId(text);
    if (id === null) throw notFound(`No ${what} with id "${text}"`);
    return id;
  };
  // include=owner: e-mail addresses only for admins and the owner (serializers/filter.ts).
  const withOwners = async (query: QueryParams, rows: Array<{ user_id: number }>, viewer: Identity | null) => {
    if (single(query, 'include') !== 'owner') return {};
    const owners = await Promise.all([...new Set(rows.map((r) => r.user_id))].map((id) => repos.users.findById(id)));
    return {
      included: includedOwners(
        owners.filter((u): u is UserRow => u !== undefined),
        viewer?.user,
      ),
    };
  };
  const listFilters = (ownerOnly: boolean) => async (request: import('fastify').FastifyRequest<{ Params: { userId?: string } }>) => {
    const identity = ownerOnly ? await auth.require(request, 'list_user_filters') : await auth.identify(request);
    const query = request.query as QueryParams;
    const ownerId = ownerOnly ? idOf(request.params.userId ?? '', 'user') : undefined;
    if (ownerOnly && identity) policies.assertSelfOrAdmin(identity, ownerId!, 'the filters');
    const { limit, offset } = pageOf(query, 25);
    const page = await repos.filters.list({
      viewer: FilterService.viewerOf(identity),
      ownerId,
      sort: single(query, 'sort') || '-created_at',
      limit,
      offset,
    });
    const base = baseUrl(request, config.publicUrl);
    return {
      ...listDocument(
        page.rows.map((f) => filterResource(f)),
        pageLinks(base, request, { offset, limit, count: page.count }),
      ),
      ...(await withOwners(query, page.rows, identity)),
    };
  };

  app.get('/v1/filters', listFilters(false));
  app.get<{ Params: { userId: string } }>('/v1/users/:userId/filters', listFilters(true));

  app.post<{ Params: { userId: string } }>('/v1/users/:userId/filters', async (request, reply) => {
    const identity = await auth.require(request, 'create_filter');
    const filter = await filters.create(identity, idOf(request.params.userId, 'user'), attributesOf(request.body));
    return reply.status(201).send({ data: filterResource(filter) });
  });

  // A dry run: what the code would do to recent (or chosen) loci; nothing is stored.
  app.post('/v1/filters/test', async (request) => {
    const identity = await auth.require(request, 'test_filter');
    const report = await tests.run(identity.user.user_id, attributesOf(request.body));
    return { data: filterTestResource(report) };
  });

  app.get<{ Params: { filterId: string } }>('/v1/filters/:filterId', async (request) => {
    const identity = await auth.identify(request);
    const filter = await filters.visible(idOf(request.params.filterId, 'filter'), identity);
    return { data: filterResource(filter), ...(await withOwners(request.query as QueryParams, [filter], identity)) };
  });

  app.patch<{ Params: { filterId: string } }>('/v1/filters/:filterId', async (request) => {
    const identity = await auth.require(request, 'update_filter');
    const filter = await filters.visible(idOf(request.params.filterId, 'filter'), identity);
    filters.assertMayAct(filter, identity);
    const isPublic = booleanField(attributesOf(request.body), 'public');
    if (isPublic === undefined) throw badRequest('public: Field is required.');
    return { data: filterResource((await repos.filters.update(filter.filter_id, { public: isPublic }))!) };
  });

  app.get<{ Params: { filterId: string } }>('/v1/filters/:filterId/versions', async (request) => {
    const filter = await filters.visible(idOf(request.params.filterId, 'filter'), await auth.identify(request));
    const query = request.query as QueryParams;
    const { limit, offset } = pageOf(query, VERSION_PAGE_LIMIT);
    const page = await repos.filters.listVersions(filter.filter_id, { sort: single(query, 'sort') || '-created_at', limit, offset });
    const base = baseUrl(request, config.publicUrl);
    return listDocument(
      page.rows.map((v) => filterVersionResource(v, filter)),
      pageLinks(base, request, { offset, limit, count: page.count }),
    );
  });

  app.get<{ Params: { filterId: string; versionId: string } }>('/v1/filters/:filterId/versions/:versionId', async (request) => {
    const filter = await filters.visible(idOf(request.params.filterId, 'filter'), await auth.identify(request));
    const version = await repos.filters.findVersion(filter.filter_id, idOf(request.params.versionId, 'filter version'));
    if (!version) throw notFound(`No version ${request.params.versionId} of filter ${filter.filter_id}`);
    return { data: filterVersionResource(version, filter) };
  });

  app.post<{ Params: { filterId: string } }>('/v1/filters/:filterId/versions', async (request, reply) => {
    const identity = await auth.require(request, 'create_filter_version');
    const filter = await filters.visible(idOf(request.params.filterId, 'filter'), identity);
    const version = await filters.addVersion(filter, identity, attributesOf(request.body));
    return reply.status(201).send({ data: filterVersionResource(version, filter) });
  });

  app.patch<{ Params: { filterId: string; versionId: string } }>('/v1/filters/:filterId/versions/:versionId', async (request) => {
    const identity = await auth.requireAdmin(request, 'update_filter_version');
    const filter = await filters.visible(idOf(request.params.filterId, 'filter'), identity);
    const version = await filters.transition(filter, idOf(request.params.versionId, 'filter version'), attributesOf(request.body));
    return { data: filterVersionResource(version, (await repos.filters.findById(filter.filter_id))!) };
  });
}
