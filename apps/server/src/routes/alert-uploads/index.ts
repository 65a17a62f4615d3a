import { Readable } from 'node:stream';

import { ALERT_FILE_TYPES, createAlertUpload, getAlertUpload } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { alertUploadResource } from '../../serializers/alert-upload.ts';
import { AlertUploadService } from '../../services/alert-upload-service.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl } from '../request-url.ts';

/** Alert files (ZTF or Rubin Avro, optionally gzipped) uploaded by an admin, ingested by the running pipeline. */
export function alertUploadRoutes(app: FastifyInstance, { auth, config }: RouteContext): void {
  // Larger sets (a night of ZTF alerts is a few hundred MB) go through the inbox folder or `antares ingest`.
  const uploads = new AlertUploadService(
    config.inboxDir,
    { maxBodyBytes: config.uploadMaxBodyBytes, maxUncompressedBytes: config.uploadMaxUncompressedBytes },
    Boolean(config.schemaRegistryUrl),
  );

  app.register(async (scope) => {
    // Only these routes take a raw body, handed over unread: the service streams it to disk under its caps
    // (the rest of the API stays JSON-only).
    scope.addContentTypeParser(ALERT_FILE_TYPES, (_request, payload, done) => done(null, payload));

    route(scope, auth, createAlertUpload, async (request, reply) => {
      const declared = Number(request.headers['content-length']);
      const body = request.body instanceof Readable ? request.body : Readable.from([]);
      const upload = await uploads.accept(body, Number.isFinite(declared) ? declared : undefined);
      const resource = alertUploadResource(baseUrl(request, config.publicUrl), upload);
      reply.code(202).header('location', resource.links!.self);
      return { data: resource, links: { self: resource.links!.self } };
    });

    route(scope, auth, getAlertUpload, async (request) => {
      const resource = alertUploadResource(baseUrl(request, config.publicUrl), uploads.get(request.params.uploadId));
      return { data: resource, links: { self: resource.links!.self } };
    });
  });
}
