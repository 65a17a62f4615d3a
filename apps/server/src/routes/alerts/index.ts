import { getAlert, getAlertCutout, getThumbnail, listAlertThumbnails } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { alertResource } from '../../serializers/alert.ts';
import { listDocument } from '../../serializers/documents.ts';
import { thumbnailResource } from '../../serializers/thumbnail.ts';
import { AlertService } from '../../services/alert-service.ts';
import { CutoutService } from '../../services/cutout-service.ts';
import { ThumbnailService } from '../../services/thumbnail-service.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl, selfUrl } from '../request-url.ts';

export function alertRoutes(app: FastifyInstance, { auth, config, repos }: RouteContext): void {
  const alerts = new AlertService(repos);
  const thumbnails = new ThumbnailService(repos);
  const cutouts = new CutoutService(repos);

  route(app, auth, getAlert, async (request) => {
    const alert = await alerts.get(request.params.alertId);
    const base = baseUrl(request, config.publicUrl);
    return { data: alertResource(base, alert), links: { self: selfUrl(base, request) } };
  });

  route(app, auth, listAlertThumbnails, async (request) => {
    const found = await alerts.thumbnailsOf(request.params.alertId);
    const base = baseUrl(request, config.publicUrl);
    return listDocument(
      found.map((t) => thumbnailResource(base, t)),
      { self: selfUrl(base, request), count: found.length },
    );
  });

  // The original FITS cutout (science.fits, template.fits, difference.fits): what the web app
  // stretches in the browser and offers for download. Stored cutouts never change.
  route(app, auth, getAlertCutout, async (request, reply) => {
    const cutout = await cutouts.fits(request.params.alertId, request.params.file);
    return reply
      .type('application/fits')
      .header('content-disposition', `attachment; filename="${cutout.fileName}"`)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(cutout.bytes);
  });

  // Rendered once and never changed, so clients may cache them for good.
  route(app, auth, getThumbnail, async (request, reply) => {
    const png = await thumbnails.png(request.params.filename);
    return reply.type('image/png').header('cache-control', 'public, max-age=31536000, immutable').send(png);
  });
}
