import { Readable } from 'node:stream';

import type { FastifyInstance } from 'fastify';

import { notFound } from '../../errors.ts';
import { alertUploadResource } from '../../serializers/alert-upload.ts';
import { AlertUploadService } from '../../services/alert-upload-service.ts';
import type { RouteContext } from '../context.ts';
import { baseUrl } from '../request-url.ts';

const ALERT_FILE_TYPES = [
  'application/octet-stream',
  'application/avro',
  'avro/binary',
  'application/vnd.apache.avro+binary',
  'application/gzip',
];

/** Alert files (ZTF or Rubin Avro, optionally gzipped) uploaded by an admin, ingested by the running pipeline. */
export function alertUploadRoutes(app: FastifyInstance, { auth, config }: RouteContext): void {
  // Larger sets (a night of ZTF alerts is a few hundred MB) go through the inbox folder or `antares ingest`.
  const uploads = new AlertUploadService(config.inboxDir, {
    maxBodyBytes: config.uploadMaxBodyBytes,
    maxUncompressedBytes: config.uploadMaxUncompressedBytes,
  });

  app.register(async (scope) => {
    // Only these routes take a raw body, handed over unread: the service streams it to disk under its caps
    // (the rest of the API stays JSON-only).
    scope.addContentTypeParser(ALERT_FILE_TYPES, (_request, payload, done) => done(null, payload));

    scope.post('/v1/alert_uploads', async (request, reply) => {
      await auth.requireAdmin(request, 'create_alert_upload');
      const declared = Number(request.headers['content-length']);
      const body = request.body instanceof Readable ? request.body : Readable.from([]);
      const upload = await uploads.accept(body, Number.isFinite(declared) ? declared : undefined);
      const resource = alertUploadResource(baseUrl(request, config.publicUrl), upload);
      reply.code(202).header('location', resource.links!.self);
      return { data: resource, links: { self: resource.links!.self } };
    });

    scope.get<{ Params: { uploadId: string } }>('/v1/alert_uploads/:uploadId', async (request) => {
      await auth.requireAdmin(request, 'get_alert_upload');
      const upload = uploads.find(request.params.uploadId);
      if (!upload) throw notFound(`No alert upload with id "${request.params.uploadId}"`);
      const resource = alertUploadResource(baseUrl(request, config.publicUrl), upload);
      return { data: resource, links: { self: resource.links!.self } };
    });
  });
}
