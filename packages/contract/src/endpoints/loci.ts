/**
 * Loci: the search (`/v1/loci`, the Elasticsearch subset clients send), its statistics, one locus, its alerts
 * and its finder chart. Documents are shaped as the published antares-client loads them (ADR 0016).
 */
import Type from 'typebox';

import { SEARCH_MAX_CLAUSES, SEARCH_MAX_CONES, SEARCH_MAX_DEPTH } from '../search-limits.ts';
import { Alert, AlertThumbnail, fileAnswer, related } from './alerts.ts';
import { listDocument, pageQuery, pathParam, resource, sortQuery } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Loci'];

/** The order of `/v1/loci` when no sort is given. */
export const LOCI_DEFAULT_SORT = '-properties.newest_alert_observation_time';

/** A locus' properties: those named here are read by name (the web app's list and page), any other of the catalogue may be there. */
export const LocusProperties = Type.Intersect(
  [
    Type.Object({
      ztf_object_id: Type.Optional(Type.String()),
      num_alerts: Type.Optional(Type.Number()),
      num_mag_values: Type.Optional(Type.Number()),
      newest_alert_magnitude: Type.Optional(Type.Number()),
      brightest_alert_magnitude: Type.Optional(Type.Number()),
      newest_alert_observation_time: Type.Optional(Type.Number({ description: 'MJD' })),
      oldest_alert_observation_time: Type.Optional(Type.Number({ description: 'MJD' })),
    }),
    Type.Record(Type.String(), Type.Unknown()),
  ],
  { description: 'The locus property catalogue (`/v1/loci_properties`) says what each one means' },
);

const attributes = {
  ra: Type.Number(),
  dec: Type.Number(),
  htm16: Type.Number(),
  properties: LocusProperties,
  tags: Type.Array(Type.String()),
  catalogs: Type.Array(Type.String()),
  grav_wave_events: Type.Array(Type.String({ description: 'GraceDB id' })),
};

/** `meta.newest_thumbnails`: the newest alert's science, template and difference thumbnails. */
const newestThumbnails = Type.Array(Type.Object({ data: AlertThumbnail }));

/** A `/v1/loci` item: every attribute may be left out by `fields[locus_listing]`. */
export const LocusListing = resource(
  'locus_listing',
  {
    ra: Type.Optional(attributes.ra),
    dec: Type.Optional(attributes.dec),
    htm16: Type.Optional(attributes.htm16),
    properties: Type.Optional(attributes.properties),
    tags: Type.Optional(attributes.tags),
    catalogs: Type.Optional(attributes.catalogs),
    grav_wave_events: Type.Optional(attributes.grav_wave_events),
  },
  { meta: { newest_thumbnails: newestThumbnails }, relationships: { alerts: related, locus: related }, links: true },
);

/** A catalog match of a locus as the locus document lists it (radius and separation in arcsec). */
export const LocusCatalogMatch = Type.Object({
  id: Type.String({ description: '<catalog>:<object id>' }),
  catalog_name: Type.String(),
  object_id: Type.String(),
  object_name: Type.String(),
  ra: Type.Number(),
  dec: Type.Number(),
  radius: Type.Union([Type.Number(), Type.Null()], { description: 'Match radius in arcsec; null for point sources' }),
  separation: Type.Number({ description: 'In arcsec' }),
});

const galactic = Type.Object({ l: Type.Number(), b: Type.Number() });

export const Locus = resource(
  'locus',
  {
    ...attributes,
    lightcurve: Type.String({ description: 'CSV of the alerts: alert_id, mjd, magnitudes and limits' }),
    catalog_matches: Type.Optional(Type.Array(LocusCatalogMatch, { description: 'Nearest first; a list attribute (ADR 0016)' })),
  },
  { meta: { coordinates: Type.Object({ galactic }) }, relationships: { alerts: related }, links: true },
);

export const LocusStatistic = resource('locus_listing_statistic', {
  tags: Type.Record(Type.String(), Type.Integer(), { description: 'Loci per tag' }),
  catalogs: Type.Record(Type.String(), Type.Integer(), { description: 'Loci per catalog' }),
  min_num_measurements: Type.Union([Type.Integer(), Type.Null()], { description: 'Null when nothing matches' }),
  max_num_measurements: Type.Union([Type.Integer(), Type.Null()]),
});

const search = () =>
  Type.Optional(
    Type.String({
      description: `JSON search document \`{"query": ...}\` in the supported Elasticsearch subset: bool (filter, must, should, must_not), term, terms, range, exists, match, wildcard, query_string, sky_distance, function_score.random_score. Anything outside it is a 400 naming the clause, and so is a document nested more than ${SEARCH_MAX_DEPTH} levels deep, with more than ${SEARCH_MAX_CLAUSES} clauses (each terms value counts) or more than ${SEARCH_MAX_CONES} sky_distance clauses.`,
    }),
  );
const locusId = Type.Object({ locusId: pathParam('Locus id (`ANT<year><12 characters>`).') });
const NO_LOCUS = 'No locus with this id';

export const searchLoci = endpoint({
  method: 'GET',
  path: '/v1/loci',
  operationId: 'search_loci',
  access: 'public',
  tags,
  summary: 'Search loci',
  description: '`meta.count` is exact up to 1,000 matches and an estimate above (then `meta.count_is_estimate` is true).',
  query: Type.Object({
    ...pageQuery(25),
    ...sortQuery(LOCI_DEFAULT_SORT, 'Dotted property paths are allowed; several fields are comma-separated.'),
    'elasticsearch_query[locus_listing]': search(),
    'fields[locus_listing]': Type.Optional(
      Type.String({
        description: 'Comma-separated attributes to return (ra, dec, htm16, properties, tags, catalogs, grav_wave_events).',
      }),
    ),
    'fields[locus]': Type.Optional(Type.String({ description: 'Same as fields[locus_listing], used when that is absent.' })),
    'page[seed]': Type.Optional(
      Type.String({
        description:
          'The order of a `random_score` search without a seed of its own: `links.next` carries it so pages never repeat a locus.',
      }),
    ),
  }),
  response: {
    status: 200,
    description: 'A page of locus_listing resources (meta.newest_thumbnails on each); meta.count, links.next',
    schema: Type.Object({
      data: Type.Array(LocusListing),
      links: Type.Object({ self: Type.String(), next: Type.Optional(Type.String()) }),
      meta: Type.Object({ count: Type.Integer(), count_is_estimate: Type.Optional(Type.Boolean()) }),
    }),
  },
  errors: { 400: 'Bad page, sort or search document' },
});

export const lociStatistics = endpoint({
  method: 'GET',
  path: '/v1/loci/statistics',
  operationId: 'loci_statistics',
  access: 'public',
  tags,
  summary: 'Tag and catalog counts, and the range of num_mag_values, over the loci matching a search',
  query: Type.Object({ 'elasticsearch_query[locus_listing_statistic]': search() }),
  response: {
    status: 200,
    description: 'One locus_listing_statistic resource: tags, catalogs, min_num_measurements, max_num_measurements',
    schema: Type.Object({ data: LocusStatistic }),
  },
  errors: { 400: 'Bad search document' },
});

export const getLocus = endpoint({
  method: 'GET',
  path: '/v1/loci/:locusId',
  operationId: 'get_locus',
  access: 'public',
  tags,
  summary: 'One locus with its lightcurve CSV and galactic coordinates',
  params: locusId,
  response: {
    status: 200,
    description: 'A locus resource; meta.coordinates.galactic, meta.newest_thumbnails',
    schema: Type.Object({
      data: Locus,
      links: Type.Object({ self: Type.String() }),
      meta: Type.Object({ coordinates: Type.Object({ galactic }), newest_thumbnails: newestThumbnails }),
    }),
  },
  errors: { 404: NO_LOCUS },
});

export const listLocusAlerts = endpoint({
  method: 'GET',
  path: '/v1/loci/:locusId/alerts',
  operationId: 'list_locus_alerts',
  access: 'public',
  tags,
  summary: 'Alerts of a locus, oldest first',
  params: locusId,
  response: { status: 200, description: 'alert resources; meta.count', schema: listDocument(Alert) },
  errors: { 404: NO_LOCUS },
});

export const createFinderChart = endpoint({
  method: 'POST',
  path: '/v1/loci/:locusId/finder-charts',
  operationId: 'create_finder_chart',
  access: 'public',
  tags,
  summary: 'A printable finder chart (PDF) of a locus: its newest science cutout and a wider field with nearby loci and catalog objects',
  description: 'No request body. Nothing is stored; the PDF comes back as an attachment.',
  params: locusId,
  response: fileAnswer('application/pdf', 'The finder chart'),
  errors: { 404: NO_LOCUS },
});
