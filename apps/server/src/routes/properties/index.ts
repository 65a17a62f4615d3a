import type { FastifyInstance } from 'fastify';
import { alertPropertyCatalog, locusPropertyCatalog, type PropertyDefinition } from '@antares/pipeline';
import type { RouteContext } from '../context.ts';
import { badRequest, notFound } from '../../errors.ts';
import { baseUrl, pageLinks } from '../../services/request-url.ts';
import { pageOf, single, type QueryParams } from '../../services/query-params.ts';
import { listDocument } from '../../serializers/documents.ts';

const SORTABLE = new Set(['id', 'type', 'origin', 'description', 'es_mapping']);

/** `/v1/alert_properties` and `/v1/loci_properties`: the property catalogue, paged and sortable. */
export function propertyRoutes(app: FastifyInstance, { config }: RouteContext): void {
  const resources = [
    { path: 'alert_properties', type: 'alert_property', catalog: alertPropertyCatalog },
    { path: 'loci_properties', type: 'locus_property', catalog: locusPropertyCatalog },
  ];
  for (const { path, type, catalog } of resources) {
    app.get(`/v1/${path}`, async (request) => {
      const query = request.query as QueryParams;
      const { limit, offset } = pageOf(query, 100);
      const sorted = sortProperties(catalog(), single(query, 'sort') || '-id');
      const base = baseUrl(request, config.publicUrl);
      const data = sorted.slice(offset, offset + limit).map((p) => resource(type, p));
      return listDocument(data, pageLinks(base, request, { offset, limit, count: sorted.length }));
    });
    app.get<{ Params: { name: string } }>(`/v1/${path}/:name`, async (request) => {
      const property = catalog().find((p) => p.id === request.params.name);
      if (!property) throw notFound(`No ${type.replace('_', ' ')} named "${request.params.name}"`);
      return { data: resource(type, property) };
    });
  }
}

function sortProperties(properties: PropertyDefinition[], sort: string): PropertyDefinition[] {
  const descending = sort.startsWith('-');
  const field = (descending ? sort.slice(1) : sort) as keyof PropertyDefinition;
  if (!SORTABLE.has(field)) throw badRequest(`Unknown sort field "${field}" (use one of ${[...SORTABLE].join(', ')})`);
  const sign = descending ? -1 : 1;
  return [...properties].sort((a, b) => sign * String(a[field]).localeCompare(String(b[field])) || a.id.localeCompare(b.id));
}

function resource(type: string, p: PropertyDefinition) {
  return {
    type,
    id: p.id,
    attributes: { name: p.id, type: p.type, origin: p.origin, description: p.description, es_mapping: p.es_mapping },
  };
}
