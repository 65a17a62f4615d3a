import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../context.ts';
import { notFound } from '../../errors.ts';
import { baseUrl } from '../../services/request-url.ts';
import { AlertUploadService } from '../../services/alert-upload-service.ts';
import { alertUploadResource } from '../../serializers/alert-upload.ts';

/** A night of ZTF alerts is a few hundred MB; larger sets go through the inbox folder or `antares ingest`. */
const UPLOAD_BODY_LIMIT = 512 * 1024 * 1024;
const ALERT_FILE_TYPES = ['application/octet-stream', 'application/avro', 'avro/binary', 'application/vnd.apache.avro+binary', 'application/gzip'];

/** Alert files (ZTF or Rubin Avro, optionally gzipped) uploaded by an admin, ingested by the running pipeline. */
export function alertUploadRoutes(app: FastifyInstance, { auth, config }: RouteContext): void {
  const uploads = new AlertUploadService(config.inboxDir);

  app.register(async (scope) => {
    // Only these routes take a raw body; the rest of the API stays JSON-only.
    scope.addContentTypeParser(ALERT_FILE_TYPES, { parseAs: 'buffer', bodyLimit: UPLOAD_BODY_LIMIT }, (_request, body, done) => done(null, body));

    scope.post('/v1/alert_uploads', { bodyLimit: UPLOAD_BODY_LIMIT }, async (request, reply) => {
      await auth.requireAdmin(request, 'create_alert_upload');
      const upload = uploads.accept(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
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
