/**
 * The OpenAPI description of the public API. Written by hand from the routes so that it documents the
 * wire format (wire format sections 1-4) rather than implementation details.
 */
const page = [
  { name: 'page[limit]', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 }, description: 'Page size (1..1000).' },
  { name: 'page[offset]', in: 'query', schema: { type: 'integer', minimum: 0 }, description: 'Items to skip.' },
];
const sort = { name: 'sort', in: 'query', schema: { type: 'string' }, description: 'Field to sort on; a leading "-" sorts descending. Dotted property paths are allowed.' };
const jsonApi = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Document' } } },
});
const errors = {
  400: { description: 'Bad input (JSON:API error document naming the problem)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' } } } },
  404: { description: 'Unknown id', content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' } } } },
};
const idParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'ANTARES API',
    version: '1.0.0',
    description: 'JSON:API access to loci, alerts and thumbnails of the ANTARES alert broker. Compatible with the antares-client package.',
  },
  servers: [{ url: '/' }],
  paths: {
    '/v1/loci': {
      get: {
        summary: 'Search loci',
        parameters: [
          ...page, sort,
          { name: 'elasticsearch_query[locus_listing]', in: 'query', schema: { type: 'string' },
            description: 'JSON search document {"query": ...} in the supported Elasticsearch subset: bool (filter, must, should, must_not), term, terms, range, exists, match, wildcard, query_string, sky_distance, function_score.random_score.' },
          { name: 'fields[locus_listing]', in: 'query', schema: { type: 'string' }, description: 'Comma-separated attributes to return.' },
        ],
        responses: { 200: jsonApi('A page of locus_listing resources; meta.count, links.next'), ...errors },
      },
    },
    '/v1/loci/statistics': {
      get: {
        summary: 'Tag and catalog counts, and the range of num_mag_values, over the loci matching a search',
        parameters: [{ name: 'elasticsearch_query[locus_listing_statistic]', in: 'query', schema: { type: 'string' } }],
        responses: { 200: jsonApi('One locus_listing_statistic resource'), ...errors },
      },
    },
    '/v1/loci/{locus_id}': {
      get: { summary: 'One locus with its lightcurve CSV and galactic coordinates', parameters: [idParam('locus_id')], responses: { 200: jsonApi('A locus resource'), ...errors } },
    },
    '/v1/loci/{locus_id}/alerts': {
      get: { summary: 'Alerts of a locus, oldest first', parameters: [idParam('locus_id')], responses: { 200: jsonApi('alert resources'), ...errors } },
    },
    '/v1/alerts/{alert_id}': {
      get: { summary: 'One alert', parameters: [idParam('alert_id')], responses: { 200: jsonApi('An alert resource'), ...errors } },
    },
    '/v1/alerts/{alert_id}/thumbnails': {
      get: { summary: 'Science, template and difference thumbnails of an alert', parameters: [idParam('alert_id')], responses: { 200: jsonApi('alert_thumbnail resources'), ...errors } },
    },
    '/v1/thumbnails/{filename}': {
      get: { summary: 'A thumbnail image', parameters: [idParam('filename')], responses: { 200: { description: 'PNG image', content: { 'image/png': {} } }, ...errors } },
    },
    '/v1/alert_properties': { get: { summary: 'Alert property catalogue', parameters: [...page, sort], responses: { 200: jsonApi('alert_property resources'), ...errors } } },
    '/v1/alert_properties/{name}': { get: { summary: 'One alert property', parameters: [idParam('name')], responses: { 200: jsonApi('An alert_property'), ...errors } } },
    '/v1/loci_properties': { get: { summary: 'Locus property catalogue', parameters: [...page, sort], responses: { 200: jsonApi('locus_property resources'), ...errors } } },
    '/v1/loci_properties/{name}': { get: { summary: 'One locus property', parameters: [idParam('name')], responses: { 200: jsonApi('A locus_property'), ...errors } } },
    '/v1/tags': { get: { summary: 'Tags of enabled public filters', parameters: [...page, sort], responses: { 200: jsonApi('tag resources'), ...errors } } },
    '/v1/streams': { get: { summary: 'Output streams (one per tag) with message counts and newest offsets', responses: { 200: jsonApi('stream resources') } } },
    '/v1/streams/{name}/messages': {
      get: {
        summary: 'Messages of a stream after an offset, oldest first; each holds the JSON:API locus document',
        parameters: [idParam('name'),
          { name: 'after', in: 'query', schema: { type: 'integer', minimum: 0 }, description: 'Offset of the last message already read (0: from the start).' },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500 } },
          { name: 'wait', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 30 }, description: 'Seconds to wait for a first message (long-poll).' }],
        responses: { 200: jsonApi('stream_message resources; meta.next_offset is the next `after`'), ...errors },
      },
    },
    '/v1/streams/{name}/events': {
      get: {
        summary: 'Server-sent events of a stream: `id` is the offset, `data` the locus document; resumes from Last-Event-ID or `after`',
        parameters: [idParam('name'), { name: 'after', in: 'query', schema: { type: 'integer', minimum: 0 } }],
        responses: { 200: { description: 'text/event-stream' }, ...errors },
      },
    },
    '/config.json': { get: { summary: 'Runtime configuration of the web app', responses: { 200: { description: 'apiURL, frontendURL, supportEmail, issueTrackerURL, chatInvitationURL' } } } },
  },
  components: {
    schemas: {
      Document: {
        type: 'object',
        properties: {
          data: { oneOf: [{ $ref: '#/components/schemas/Resource' }, { type: 'array', items: { $ref: '#/components/schemas/Resource' } }] },
          links: { type: 'object', properties: { self: { type: 'string' }, next: { type: 'string' } } },
          meta: { type: 'object', properties: { count: { type: 'integer' } } },
        },
      },
      Resource: {
        type: 'object',
        required: ['type', 'id'],
        properties: { type: { type: 'string' }, id: { type: 'string' }, attributes: { type: 'object' }, relationships: { type: 'object' }, links: { type: 'object' }, meta: { type: 'object' } },
      },
      Errors: {
        type: 'object',
        properties: { errors: { type: 'array', items: { type: 'object', properties: { status: { type: 'string' }, title: { type: 'string' }, detail: { type: 'string' } } } } },
      },
    },
  },
};
