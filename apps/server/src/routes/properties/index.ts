import { getAlertProperty, getLocusProperty, listAlertProperties, listLocusProperties } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { listDocument } from '../../serializers/documents.ts';
import { propertyResource } from '../../serializers/property.ts';
import { type PropertyKind, PropertyService } from '../../services/property-service.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

/** `/v1/alert_properties` and `/v1/loci_properties`: the property catalogue, paged and sortable. */
export function propertyRoutes(app: FastifyInstance, { auth, config }: RouteContext): void {
  const properties = new PropertyService();
  const catalogues = [
    { type: 'alert_property' as PropertyKind, list: listAlertProperties, get: getAlertProperty },
    { type: 'locus_property' as PropertyKind, list: listLocusProperties, get: getLocusProperty },
  ];
  for (const { type, list, get } of catalogues) {
    route(app, auth, list, async (request) => {
      const { 'page[limit]': limit = 100, 'page[offset]': offset = 0, sort } = request.query;
      const page = properties.list(type, sort, { limit, offset });
      return listDocument(
        page.rows.map((p) => propertyResource(type, p)),
        pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
      );
    });
    route(app, auth, get, async (request) => ({ data: propertyResource(type, properties.get(type, request.params.name)) }));
  }
}
