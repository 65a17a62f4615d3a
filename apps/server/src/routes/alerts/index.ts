import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../context.ts';
import { notFound } from '../../errors.ts';
import { baseUrl, selfUrl } from '../../services/request-url.ts';
import { listDocument } from '../../serializers/documents.ts';
import { alertResource } from '../../serializers/alert.ts';
import { thumbnailResource } from '../../serializers/thumbnail.ts';
import { ThumbnailService } from '../../services/thumbnail-service.ts';

export function alertRoutes(app: FastifyInstance, { config, repos }: RouteContext): void {
  const thumbnails = new ThumbnailService(repos);

  app.get<{ Params: { alertId: string } }>('/v1/alerts/:alertId', async (request) => {
    const alert = await repos.alerts.findById(request.params.alertId);
    if (!alert) throw notFound(`No alert with id "${request.params.alertId}"`);
    const base = baseUrl(request, config.publicUrl);
    return { data: alertResource(base, alert), links: { self: selfUrl(base, request) } };
  });

  app.get<{ Params: { alertId: string } }>('/v1/alerts/:alertId/thumbnails', async (request) => {
    const alert = await repos.alerts.findById(request.params.alertId);
    if (!alert) throw notFound(`No alert with id "${request.params.alertId}"`);
    const base = baseUrl(request, config.publicUrl);
    const thumbnails = await repos.thumbnails.listForAlerts([alert.alert_id]);
    return listDocument(thumbnails.map((t) => thumbnailResource(base, t)), { self: selfUrl(base, request), count: thumbnails.length });
  });

  // Rendered once and never changed, so clients may cache them for good.
  app.get<{ Params: { filename: string } }>('/v1/thumbnails/:filename', async (request, reply) => {
    const png = await thumbnails.png(request.params.filename);
    return reply.type('image/png').header('cache-control', 'public, max-age=31536000, immutable').send(png);
  });
}
