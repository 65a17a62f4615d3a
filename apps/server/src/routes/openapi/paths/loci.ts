/** Loci, alerts, thumbnails, finder charts and the property catalogue (routes/loci, alerts, properties). */
import { fail, jsonApi, op, page, pathParam, type Paths, queryParam, sort } from '../shared.ts';

const loci = ['Loci'];
const alerts = ['Alerts'];
const properties = ['Properties'];
const locusId = pathParam('locusId', 'Locus id (`ANT<year><12 characters>`).');
const alertId = pathParam(
  'alertId',
  'Alert id such as `ztf_candidate:<candid>`, `ztf_upper_limit:<objectId>-<pid>`, `lsst:<diaSourceId>` (URL-encoded).',
);
const noLocus = fail({ 404: 'No locus with this id' });
const noAlert = fail({ 404: 'No alert with this id' });
const search = (key: string) =>
  queryParam(
    `elasticsearch_query[${key}]`,
    'JSON search document `{"query": ...}` in the supported Elasticsearch subset: bool (filter, must, should, must_not), term, terms, range, exists, match, wildcard, query_string, sky_distance, function_score.random_score. Anything outside it is a 400 naming the clause.',
  );

const propertyCatalog = (path: string, type: string, what: string): Paths => ({
  [`/v1/${path}`]: {
    get: op('get', 'public', {
      tags: properties,
      operationId: `list_${path}`,
      summary: `${what} property catalogue`,
      parameters: [...page(100), sort('-id', 'One of id, type, origin, description, es_mapping.')],
      responses: { 200: jsonApi(`A page of ${type} resources; meta.count, links.next`), ...fail({ 400: 'Bad page or sort field' }) },
    }),
  },
  [`/v1/${path}/{name}`]: {
    get: op('get', 'public', {
      tags: properties,
      operationId: `get_${type}`,
      summary: `One ${what.toLowerCase()} property`,
      parameters: [pathParam('name', 'Property name, e.g. `ant_mag` or `num_alerts`.')],
      responses: { 200: jsonApi(`A ${type} resource`), ...fail({ 404: `No ${what.toLowerCase()} property of this name` }) },
    }),
  },
});

export const lociPaths: Paths = {
  '/v1/loci': {
    get: op('get', 'public', {
      tags: loci,
      operationId: 'search_loci',
      summary: 'Search loci',
      description: '`meta.count` is exact up to 1,000 matches and an estimate above (then `meta.count_is_estimate` is true).',
      parameters: [
        ...page(25),
        sort('-properties.newest_alert_observation_time', 'Dotted property paths are allowed; several fields are comma-separated.'),
        search('locus_listing'),
        queryParam(
          'fields[locus_listing]',
          'Comma-separated attributes to return (ra, dec, htm16, properties, tags, catalogs, grav_wave_events).',
        ),
        queryParam('fields[locus]', 'Same as fields[locus_listing], used when that is absent.'),
        queryParam(
          'page[seed]',
          'The order of a `random_score` search without a seed of its own: `links.next` carries it so pages never repeat a locus.',
        ),
      ],
      responses: {
        200: jsonApi('A page of locus_listing resources (meta.newest_thumbnails on each); meta.count, links.next'),
        ...fail({ 400: 'Bad page, sort or search document' }),
      },
    }),
  },
  '/v1/loci/statistics': {
    get: op('get', 'public', {
      tags: loci,
      operationId: 'loci_statistics',
      summary: 'Tag and catalog counts, and the range of num_mag_values, over the loci matching a search',
      parameters: [search('locus_listing_statistic')],
      responses: {
        200: jsonApi('One locus_listing_statistic resource: tags, catalogs, min_num_measurements, max_num_measurements'),
        ...fail({ 400: 'Bad search document' }),
      },
    }),
  },
  '/v1/loci/{locusId}': {
    get: op('get', 'public', {
      tags: loci,
      operationId: 'get_locus',
      summary: 'One locus with its lightcurve CSV and galactic coordinates',
      parameters: [locusId],
      responses: { 200: jsonApi('A locus resource; meta.coordinates.galactic, meta.newest_thumbnails'), ...noLocus },
    }),
  },
  '/v1/loci/{locusId}/alerts': {
    get: op('get', 'public', {
      tags: loci,
      operationId: 'list_locus_alerts',
      summary: 'Alerts of a locus, oldest first',
      parameters: [locusId],
      responses: { 200: jsonApi('alert resources; meta.count'), ...noLocus },
    }),
  },
  '/v1/loci/{locusId}/finder-charts': {
    post: op('post', 'public', {
      tags: loci,
      operationId: 'create_finder_chart',
      summary:
        'A printable finder chart (PDF) of a locus: its newest science cutout and a wider field with nearby loci and catalog objects',
      description: 'No request body. Nothing is stored; the PDF comes back as an attachment.',
      parameters: [locusId],
      responses: {
        200: {
          description: 'The finder chart',
          content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
        },
        ...noLocus,
      },
    }),
  },
  '/v1/alerts/{alertId}': {
    get: op('get', 'public', {
      tags: alerts,
      operationId: 'get_alert',
      summary: 'One alert',
      parameters: [alertId],
      responses: { 200: jsonApi('An alert resource (relationships.locus)'), ...noAlert },
    }),
  },
  '/v1/alerts/{alertId}/thumbnails': {
    get: op('get', 'public', {
      tags: alerts,
      operationId: 'list_alert_thumbnails',
      summary: 'Science, template and difference thumbnails of an alert',
      parameters: [alertId],
      responses: { 200: jsonApi('alert_thumbnail resources (attributes.src is the PNG); meta.count'), ...noAlert },
    }),
  },
  '/v1/alerts/{alertId}/cutouts/{file}': {
    get: op('get', 'public', {
      tags: alerts,
      operationId: 'get_alert_cutout',
      summary: 'The original FITS cutout of an alert (science, template or difference)',
      description:
        'As the survey sent it (gzipped ZTF cutouts are served unzipped), as an attachment; `Cache-Control: public, max-age=31536000, immutable`. 422 when the stored cutout is not FITS (2016 ZTF packets carry JPEGs).',
      parameters: [alertId, pathParam('file', '`science.fits`, `template.fits` or `difference.fits`.')],
      responses: {
        200: {
          description: 'The FITS file',
          content: { 'application/fits': { schema: { type: 'string', contentMediaType: 'application/fits' } } },
        },
        ...fail({
          404: 'No alert with this id, no such cutout type, or no cutout of this type',
          422: 'The stored cutout is not a FITS file',
        }),
      },
    }),
  },
  '/v1/thumbnails/{filename}': {
    get: op('get', 'public', {
      tags: alerts,
      operationId: 'get_thumbnail',
      summary: 'A thumbnail image, rendered from the cutout on first request',
      description: 'Never changes once rendered: served with `Cache-Control: public, max-age=31536000, immutable`.',
      parameters: [pathParam('filename', 'Thumbnail file name, as in an alert_thumbnail resource.')],
      responses: {
        200: { description: 'PNG image', content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } } },
        ...fail({ 404: 'No thumbnail of this name', 422: 'The cutout cannot be rendered' }),
      },
    }),
  },
  ...propertyCatalog('alert_properties', 'alert_property', 'Alert'),
  ...propertyCatalog('loci_properties', 'locus_property', 'Locus'),
};
