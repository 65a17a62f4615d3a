/** Gravitational-wave notices (wire format) and events for the events page (routes/grav-waves). */
import { fail, jsonApi, op, page, pathParam, type Paths, plainBody, queryParam } from '../shared.ts';

const tags = ['Gravitational waves'];
const gracedbId = pathParam('gracedbId', 'GraceDB superevent id, e.g. S190425z.');
const noEvent = fail({ 404: 'No event with this id' });

const igwnNotice = {
  type: 'object',
  required: ['superevent_id', 'alert_type', 'time_created'],
  description:
    'An IGWN alert as LIGO/Virgo/KAGRA publish it (JSON). Non-retraction notices carry `event` with `time`, `far` and `skymap` (a base64 multi-order FITS sky map).',
  properties: {
    superevent_id: { type: 'string', pattern: '^[A-Z]{1,2}\\d{6}[a-z]+$' },
    alert_type: { type: 'string', enum: ['EARLY_WARNING', 'PRELIMINARY', 'INITIAL', 'UPDATE', 'RETRACTION'] },
    time_created: { type: 'string', format: 'date-time' },
    event: {
      type: ['object', 'null'],
      properties: {
        time: { type: 'string', format: 'date-time' },
        far: { type: 'number' },
        skymap: { type: 'string', contentEncoding: 'base64' },
      },
    },
    external_coinc: { type: ['object', 'null'] },
  },
};

export const gravWavePaths: Paths = {
  '/v1/grav_wave_notices': {
    post: op('post', 'admin', {
      tags,
      operationId: 'create_grav_wave_notice',
      summary: 'Receive an IGWN notice',
      description:
        'Stores the notice and its sky map, updates the event, and associates recent detections inside the 90% credible region. Sending a stored notice again changes nothing. Body limit 32 MiB.',
      requestBody: plainBody(igwnNotice),
      responses: {
        200: jsonApi('Already stored: the grav_wave_notice resource'),
        201: jsonApi('Stored: the grav_wave_notice resource'),
        ...fail({ 400: 'Not a valid IGWN notice (the detail says why)', 413: 'Request body over 32 MiB' }),
      },
    }),
  },
  '/v1/grav_wave_notices/latest': {
    get: op('get', 'public', {
      tags,
      operationId: 'latest_grav_wave_notices',
      summary: 'The latest notice of each of several events',
      parameters: [queryParam('ids', 'GraceDB ids, comma-separated.', { type: 'string' }, true)],
      responses: {
        200: jsonApi('grav_wave_notice resources (events without a notice are left out); meta.count'),
        ...fail({ 400: 'ids: none given' }),
      },
    }),
  },
  '/v1/grav_wave_notices/{gracedbId}/latest': {
    get: op('get', 'public', {
      tags,
      operationId: 'latest_grav_wave_notice',
      summary: 'The latest notice of an event',
      parameters: [gracedbId],
      responses: { 200: jsonApi('A grav_wave_notice resource'), ...fail({ 404: 'No notice of this event' }) },
    }),
  },
  '/v1/grav_wave_notices/{gracedbId}/{noticeDatetime}': {
    get: op('get', 'public', {
      tags,
      operationId: 'get_grav_wave_notice',
      summary: 'The notice of an event created at a given time',
      parameters: [
        gracedbId,
        pathParam('noticeDatetime', "The notice's time_created (ISO 8601, URL-encoded).", { type: 'string', format: 'date-time' }),
      ],
      responses: {
        200: jsonApi('A grav_wave_notice resource'),
        ...fail({ 400: 'Not a time', 404: 'No notice of this event at this time' }),
      },
    }),
  },
  '/v1/grav_wave_events': {
    get: op('get', 'public', {
      tags,
      operationId: 'list_grav_wave_events',
      summary: 'Gravitational-wave events, newest first, with their latest notice and loci count',
      parameters: [...page(25)],
      responses: { 200: jsonApi('A page of grav_wave_event resources; meta.count, links.next'), ...fail({ 400: 'Bad page' }) },
    }),
  },
  '/v1/grav_wave_events/{gracedbId}': {
    get: op('get', 'public', {
      tags,
      operationId: 'get_grav_wave_event',
      summary: 'One event',
      parameters: [gracedbId],
      responses: { 200: jsonApi('A grav_wave_event resource'), ...noEvent },
    }),
  },
  '/v1/grav_wave_events/{gracedbId}/skymap': {
    get: op('get', 'public', {
      tags,
      operationId: 'get_grav_wave_skymap',
      summary: "The event's sky map for drawing: HEALPix order 6 pixels with density and credible level",
      parameters: [gracedbId],
      responses: {
        200: jsonApi('A grav_wave_skymap resource: order, pixels [{ra, dec, probability_density, level}], area50, area90 (square degrees)'),
        ...fail({ 404: 'No such event, or it has no sky map' }),
      },
    }),
  },
  '/v1/grav_wave_events/{gracedbId}/loci': {
    get: op('get', 'public', {
      tags,
      operationId: 'list_grav_wave_loci',
      summary: 'Loci associated with an event, by credible level',
      parameters: [gracedbId, ...page(25)],
      responses: {
        200: jsonApi('A page of grav_wave_locus resources: ra, dec, contour_level, contour_area, mjd; meta.count, links.next'),
        ...fail({ 400: 'Bad page', 404: 'No event with this id' }),
      },
    }),
  },
};
