import { Readable } from 'node:stream';

import { deleteFilterFile, getFilterFile, listFilterFiles, listFilterVersionFiles, putFilterFile } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { filterFileResource } from '../../serializers/filter-file.ts';
import { FilterFileService } from '../../services/filter-file-service.ts';
import { FilterService } from '../../services/filter-service.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl } from '../request-url.ts';

/** A filter's data files (REQUIRES_FILES, ADR 0053): seen as the filter is, changed by its owner or an admin. */
export function filterFileRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const filters = new FilterService(repos);
  const files = new FilterFileService(repos, { maxFileBytes: config.filterFileMaxBytes, maxUserBytes: config.filterFilesUserMaxBytes });
  const base = (request: Parameters<typeof baseUrl>[0]) => baseUrl(request, config.publicUrl);

  route(app, auth, listFilterFiles, async (request, _reply, identity) => {
    const filter = await filters.visible(Number(request.params.filterId), identity);
    const rows = await files.list(filter);
    return { data: rows.map((row) => filterFileResource(base(request), filter.filter_id, row)), meta: { count: rows.length } };
  });

  route(app, auth, listFilterVersionFiles, async (request, _reply, identity) => {
    const filter = await filters.visible(Number(request.params.filterId), identity);
    const { rows, required, missing } = await files.ofVersion(await filters.version(filter, Number(request.params.versionId)));
    return {
      data: rows.map((row) => filterFileResource(base(request), filter.filter_id, row)),
      meta: { count: rows.length, required, missing },
    };
  });

  route(app, auth, getFilterFile, async (request, reply, identity) => {
    const filter = await filters.visible(Number(request.params.filterId), identity);
    const row = await files.get(filter, request.params.name);
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-length', String(row.size))
      .header('etag', `"${row.sha256}"`)
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(row.name)}`)
      .send(files.download(row));
  });

  route(app, auth, deleteFilterFile, async (request, reply, identity) => {
    const filter = await filters.visible(Number(request.params.filterId), identity);
    filters.assertMayAct(filter, identity);
    await files.remove(filter, request.params.name);
    return reply.status(204).send();
  });

  app.register(async (scope) => {
    // This route alone takes its body raw, whatever its content type (a .json or .txt file is bytes too),
    // handed over unread: the service streams it to the store under its limits.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    route(scope, auth, putFilterFile, async (request, _reply, identity) => {
      const filter = await filters.visible(Number(request.params.filterId), identity);
      filters.assertMayAct(filter, identity);
      const declared = Number(request.headers['content-length']);
      const body = request.body instanceof Readable ? request.body : Readable.from([]);
      const { row, enabledKeeps } = await files.put(filter, request.params.name, body, Number.isFinite(declared) ? declared : undefined);
      const resource = filterFileResource(
        base(request),
        filter.filter_id,
        row,
        enabledKeeps ? { enabled_version_keeps: enabledKeeps } : undefined,
      );
      return { data: resource, links: { self: resource.links!.self } };
    });
  });
}
