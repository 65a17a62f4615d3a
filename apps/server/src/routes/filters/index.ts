import {
  createFilter,
  createFilterVersion,
  getFilter,
  getFilterVersion,
  listFilters,
  listFilterVersions,
  listUserFilters,
  testFilter,
  updateFilter,
  updateFilterVersion,
} from '@antares/contract/endpoints';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { Identity } from '../../auth/authenticator.ts';
import { listDocument } from '../../serializers/documents.ts';
import { filterResource, filterTestResource, filterVersionResource, includedOwners } from '../../serializers/filter.ts';
import { attributesOf } from '../../services/body.ts';
import { FilterService } from '../../services/filter-service.ts';
import { FilterTestService } from '../../services/filter-test-service.ts';
import { SandboxTurns } from '../../services/sandbox-turns.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

/** Filters and their versions; reads are optional-auth (private filters only for owner and admins). */
export function filterRoutes(app: FastifyInstance, { auth, repos, config, filterSandbox }: RouteContext): void {
  // As many turns at once as the dry-run pool has workers; beyond them, users take turns (ADR 0062).
  const turns = new SandboxTurns(config.filterLimits.dryRunWorkers);
  const filters = new FilterService(repos, filterSandbox, turns);
  const tests = new FilterTestService(repos, filterSandbox, turns, config.requireEmailVerification);
  // include=owner: e-mail addresses only for admins and the owner (serializers/filter.ts).
  const withOwners = async (include: string | undefined, rows: Array<{ user_id: number }>, viewer: Identity | null) =>
    include === 'owner' ? { included: includedOwners(await filters.owners(rows), viewer?.user) } : {};
  const filterList = async (
    request: FastifyRequest & { query: { 'page[limit]'?: number; 'page[offset]'?: number; sort?: string; include?: string } },
    identity: Identity | null,
    ownerId?: number,
  ) => {
    const { 'page[limit]': limit = 25, 'page[offset]': offset = 0, sort, include } = request.query;
    const page = await filters.list(identity, ownerId, { sort, limit, offset });
    return {
      ...listDocument(
        page.rows.map((f) => filterResource(f)),
        pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
      ),
      ...(await withOwners(include, page.rows, identity)),
    };
  };

  route(app, auth, listFilters, async (request, _reply, identity) => filterList(request, identity));
  route(app, auth, listUserFilters, async (request, _reply, identity) => filterList(request, identity, Number(request.params.userId)));

  route(app, auth, createFilter, async (request, reply, identity) => {
    const filter = await filters.create(identity, Number(request.params.userId), attributesOf(request.body));
    return reply.status(201).send({ data: filterResource(filter) });
  });

  // A dry run: what the code would do to recent (or chosen) loci; nothing is stored.
  route(app, auth, testFilter, async (request, _reply, identity) => ({
    data: filterTestResource(await tests.run(identity, attributesOf(request.body))),
  }));

  route(app, auth, getFilter, async (request, _reply, identity) => {
    const filter = await filters.visible(Number(request.params.filterId), identity);
    return { data: filterResource(filter), ...(await withOwners(request.query.include, [filter], identity)) };
  });

  route(app, auth, updateFilter, async (request, _reply, identity) => ({
    data: filterResource(await filters.setPublic(Number(request.params.filterId), identity, attributesOf(request.body))),
  }));

  route(app, auth, listFilterVersions, async (request, _reply, identity) => {
    const filter = await filters.visible(Number(request.params.filterId), identity);
    const { 'page[limit]': limit = 100, 'page[offset]': offset = 0, sort } = request.query;
    const page = await filters.versions(filter, { sort, limit, offset });
    return listDocument(
      page.rows.map((v) => filterVersionResource(v, filter)),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });

  route(app, auth, getFilterVersion, async (request, _reply, identity) => {
    const filter = await filters.visible(Number(request.params.filterId), identity);
    return { data: filterVersionResource(await filters.version(filter, Number(request.params.versionId)), filter) };
  });

  route(app, auth, createFilterVersion, async (request, reply, identity) => {
    const filter = await filters.visible(Number(request.params.filterId), identity);
    const version = await filters.addVersion(filter, identity, attributesOf(request.body));
    return reply.status(201).send({ data: filterVersionResource(version, filter) });
  });

  route(app, auth, updateFilterVersion, async (request, _reply, identity) => {
    const filter = await filters.visible(Number(request.params.filterId), identity);
    const moved = await filters.transition(filter, Number(request.params.versionId), attributesOf(request.body));
    return { data: filterVersionResource(moved.version, moved.filter) };
  });
}
