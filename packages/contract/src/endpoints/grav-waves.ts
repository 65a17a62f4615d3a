/** Gravitational-wave notices (wire format: IGWN alerts as received) and events (the events page). */
import Type from 'typebox';

import { allDocument, listDocument, pageQuery, pathParam, resource, singleDocument } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Gravitational waves'];

/** Notices carry their sky map inline (about 1 MB base64). */
export const GW_NOTICE_BODY_LIMIT = 32 * 1024 * 1024;

const nullableTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const GravWaveNotice = resource('grav_wave_notice', {
  gracedb_id: Type.String(),
  notice_type: Type.String({ description: 'EARLY_WARNING, PRELIMINARY, INITIAL, UPDATE or RETRACTION' }),
  notice_datetime: Type.String({ format: 'date-time' }),
  event_datetime: nullableTime,
  false_alarm_rate: Type.Union([Type.Number({ description: 'Hz' }), Type.Null()]),
  skymap_base64: Type.Union([Type.String({ description: 'Multi-order FITS sky map, base64' }), Type.Null()]),
  external_coinc: Type.Unknown(),
  full_notice: Type.Record(Type.String(), Type.Unknown(), { description: 'The IGWN alert as received' }),
  version_id: Type.Integer(),
});

export const GravWaveEvent = resource('grav_wave_event', {
  gracedb_id: Type.String(),
  event_datetime: nullableTime,
  notice_type: Type.String({ description: "The latest notice's type" }),
  notice_datetime: Type.String({ format: 'date-time' }),
  retracted: Type.Boolean(),
  false_alarm_rate: Type.Union([Type.Number({ description: 'Hz' }), Type.Null()], { description: 'Null when the notice gave none' }),
  area50: Type.Union([Type.Number(), Type.Null()], { description: 'Square degrees of the 50% credible region' }),
  area90: Type.Union([Type.Number(), Type.Null()], { description: 'Square degrees of the 90% credible region' }),
  loci_count: Type.Integer(),
});

export const GravWaveSkyMap = resource('grav_wave_skymap', {
  order: Type.Integer({ description: 'HEALPix order of the pixels' }),
  pixels: Type.Array(
    Type.Object({
      ra: Type.Number(),
      dec: Type.Number(),
      probability_density: Type.Number({ description: 'Per steradian' }),
      level: Type.Number({ description: 'Smallest credible region holding the pixel, 0..1' }),
    }),
  ),
  area50: Type.Number({ description: 'Square degrees' }),
  area90: Type.Number({ description: 'Square degrees' }),
});

export const GravWaveLocus = resource('grav_wave_locus', {
  locus_id: Type.String(),
  ra: Type.Number(),
  dec: Type.Number(),
  contour_level: Type.Number({ description: "Credible level of the locus' position, percent" }),
  contour_area: Type.Number({ description: 'Area of that credible region, square degrees' }),
  mjd: Type.Number({ description: "MJD of the locus' alert in that region" }),
});

/** An IGWN alert as LIGO/Virgo/KAGRA publish it; the service checks it field by field (its messages). */
const IgwnNotice = Type.Object(
  {
    superevent_id: Type.String({ pattern: '^[A-Z]{1,2}\\d{6}[a-z]+$' }),
    alert_type: Type.Enum(['EARLY_WARNING', 'PRELIMINARY', 'INITIAL', 'UPDATE', 'RETRACTION']),
    time_created: Type.String({ format: 'date-time' }),
    event: Type.Optional(
      Type.Union([
        Type.Object({
          time: Type.Optional(Type.String({ format: 'date-time' })),
          far: Type.Optional(Type.Number()),
          skymap: Type.Optional(Type.String({ contentEncoding: 'base64' })),
        }),
        Type.Null(),
      ]),
    ),
    external_coinc: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  },
  {
    description:
      'An IGWN alert as LIGO/Virgo/KAGRA publish it (JSON). Non-retraction notices carry `event` with `time`, `far` and `skymap` (a base64 multi-order FITS sky map).',
  },
);

const gracedbId = pathParam('GraceDB superevent id, e.g. S190425z.');
const NO_EVENT = 'No event with this id';

export const createGravWaveNotice = endpoint({
  method: 'POST',
  path: '/v1/grav_wave_notices',
  operationId: 'create_grav_wave_notice',
  access: 'admin',
  tags,
  summary: 'Receive an IGWN notice',
  description:
    'Stores the notice and its sky map, updates the event, and associates recent detections inside the 90% credible region. Sending a stored notice again changes nothing and answers 200 with the stored notice. Body limit 32 MiB.',
  body: { kind: 'plain', schema: IgwnNotice },
  bodyLimit: GW_NOTICE_BODY_LIMIT,
  response: {
    status: 201,
    description: 'Stored (200 when already stored): the grav_wave_notice resource',
    schema: singleDocument(GravWaveNotice),
  },
  errors: { 400: 'Not a valid IGWN notice (the detail says why)', 413: 'Request body over 32 MiB' },
});

export const latestGravWaveNotices = endpoint({
  method: 'GET',
  path: '/v1/grav_wave_notices/latest',
  operationId: 'latest_grav_wave_notices',
  access: 'public',
  tags,
  summary: 'The latest notice of each of several events',
  query: Type.Object({
    // Optional to the schema: the service answers a missing or empty one with its own message.
    ids: Type.Optional(Type.String({ description: 'GraceDB ids, comma-separated (required).' })),
  }),
  response: {
    status: 200,
    description: 'grav_wave_notice resources (events without a notice are left out); meta.count',
    schema: allDocument(GravWaveNotice),
  },
  errors: { 400: 'ids: none given' },
});

export const latestGravWaveNotice = endpoint({
  method: 'GET',
  path: '/v1/grav_wave_notices/:gracedbId/latest',
  operationId: 'latest_grav_wave_notice',
  access: 'public',
  tags,
  summary: 'The latest notice of an event',
  params: Type.Object({ gracedbId }),
  response: { status: 200, description: 'A grav_wave_notice resource', schema: singleDocument(GravWaveNotice) },
  errors: { 404: 'No notice of this event' },
});

export const getGravWaveNotice = endpoint({
  method: 'GET',
  path: '/v1/grav_wave_notices/:gracedbId/:noticeDatetime',
  operationId: 'get_grav_wave_notice',
  access: 'public',
  tags,
  summary: 'The notice of an event created at a given time',
  params: Type.Object({
    gracedbId,
    noticeDatetime: pathParam("The notice's time_created (ISO 8601, URL-encoded)."),
  }),
  response: { status: 200, description: 'A grav_wave_notice resource', schema: singleDocument(GravWaveNotice) },
  errors: { 400: 'Not a time', 404: 'No notice of this event at this time' },
});

export const listGravWaveEvents = endpoint({
  method: 'GET',
  path: '/v1/grav_wave_events',
  operationId: 'list_grav_wave_events',
  access: 'public',
  tags,
  summary: 'Gravitational-wave events, newest first, with their latest notice and loci count',
  query: Type.Object(pageQuery(25)),
  response: {
    status: 200,
    description: 'A page of grav_wave_event resources; meta.count, links.next',
    schema: listDocument(GravWaveEvent),
  },
  errors: { 400: 'Bad page' },
});

export const getGravWaveEvent = endpoint({
  method: 'GET',
  path: '/v1/grav_wave_events/:gracedbId',
  operationId: 'get_grav_wave_event',
  access: 'public',
  tags,
  summary: 'One event',
  params: Type.Object({ gracedbId }),
  response: { status: 200, description: 'A grav_wave_event resource', schema: singleDocument(GravWaveEvent) },
  errors: { 404: NO_EVENT },
});

export const getGravWaveSkyMap = endpoint({
  method: 'GET',
  path: '/v1/grav_wave_events/:gracedbId/skymap',
  operationId: 'get_grav_wave_skymap',
  access: 'public',
  tags,
  summary: "The event's sky map for drawing: HEALPix order 6 pixels with density and credible level",
  params: Type.Object({ gracedbId }),
  response: { status: 200, description: 'A grav_wave_skymap resource', schema: singleDocument(GravWaveSkyMap) },
  errors: { 404: 'No such event, or it has no sky map' },
});

export const listGravWaveLoci = endpoint({
  method: 'GET',
  path: '/v1/grav_wave_events/:gracedbId/loci',
  operationId: 'list_grav_wave_loci',
  access: 'public',
  tags,
  summary: 'Loci associated with an event, by credible level',
  params: Type.Object({ gracedbId }),
  query: Type.Object(pageQuery(25)),
  response: {
    status: 200,
    description: 'A page of grav_wave_locus resources; meta.count, links.next',
    schema: listDocument(GravWaveLocus),
  },
  errors: { 400: 'Bad page', 404: NO_EVENT },
});
