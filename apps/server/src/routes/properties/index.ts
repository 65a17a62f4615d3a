import type { FastifyInstance } from 'fastify';

import { listDocument } from '../../serializers/documents.ts';
import { propertyResource } from '../../serializers/property.ts';
import { type PropertyKind, PropertyService } from '../../services/property-service.ts';
import { pageOf, type QueryParams, single } from '../../services/query-params.ts';
import type { RouteContext } from '../context.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

/** `/v1/alert_properties` and `/v1/loci_properties`: the property catalogue, paged and sortable. */
export function propertyRoutes(app: FastifyInstance, { config }: RouteContext): void {
  const properties = new PropertyService();
  const resources: Array<{ path: string; type: PropertyKind }> = [
    { path: 'alert_properties', type: 'alert_property' },
    { path: 'loci_properties', type: 'locus_property' },
  ];
  for (const { path, type } of resources) {
    app.get(`/v1/${path}`, async (request) => {
      const query = request.query as QueryParams;
      const { limit, offset } = pageOf(query, 100);
      const page = properties.list(type, single(query, 'sort'), { limit, offset });
      const base = baseUrl(request, config.publicUrl);
      return listDocument(
        page.rows.map((p) => propertyResource(type, p)),
        pageLinks(base, request, { offset, limit, count: page.count }),
      );
    });
    app.get<{ Params: { name: string } }>(`/v1/${path}/:name`, async (request) => ({
      data: propertyResource(type, properties.get(type, request.params.name)),
    }));
  }
}
