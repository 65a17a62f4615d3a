/** Alerts, their thumbnails (PNG, rendered on first request) and their original FITS cutouts. */
import Type from 'typebox';

import { listDocument, pathParam, resource } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Alerts'];

/** A link to related resources, `{"links": {"related": url}}`. */
export const related = Type.Object({ links: Type.Object({ related: Type.String() }) });

export const AlertThumbnail = resource('alert_thumbnail', {
  filename: Type.String(),
  filemime: Type.String(),
  src: Type.String({ description: 'URL of the PNG' }),
  thumbnail_type: Type.Union([Type.Literal('science'), Type.Literal('template'), Type.Literal('difference')]),
});

/** A gravitational-wave event whose credible region held the alert (ADR 0008). */
export const AlertGravWaveMatch = Type.Object({
  gracedb_id: Type.String(),
  contour_level: Type.Optional(Type.Number({ description: 'Smallest credible region (percent) holding the alert' })),
  contour_area: Type.Optional(Type.Number({ description: 'Area of that region in square degrees' })),
});

export const Alert = resource(
  'alert',
  {
    survey: Type.String({ description: '`ztf` or `lsst`' }),
    mjd: Type.Number(),
    processed_at: Type.String({ format: 'date-time' }),
    properties: Type.Record(Type.String(), Type.Unknown(), { description: 'Every ztf_*, lsst_* and ant_* property of the alert' }),
    grav_wave_events: Type.Array(AlertGravWaveMatch),
  },
  {
    relationships: {
      thumbnails: related,
      locus: Type.Object({
        links: Type.Object({ related: Type.String() }),
        data: Type.Object({ type: Type.Literal('locus'), id: Type.String() }),
      }),
    },
    links: true,
  },
);

const alertId = pathParam(
  'Alert id such as `ztf_candidate:<candid>`, `ztf_upper_limit:<objectId>-<pid>`, `lsst:<diaSourceId>` (URL-encoded).',
);
const NO_ALERT = 'No alert with this id';

/** A file answer (PDF, FITS, PNG): documented by its media type, not checked as JSON. */
export const fileAnswer = (mediaType: string, description: string) => ({
  status: 200,
  description,
  mediaType,
  schema: Type.String({ contentMediaType: mediaType }),
});

export const getAlert = endpoint({
  method: 'GET',
  path: '/v1/alerts/:alertId',
  operationId: 'get_alert',
  access: 'public',
  tags,
  summary: 'One alert',
  params: Type.Object({ alertId }),
  response: {
    status: 200,
    description: 'An alert resource (relationships.locus)',
    schema: Type.Object({ data: Alert, links: Type.Object({ self: Type.String() }) }),
  },
  errors: { 404: NO_ALERT },
});

export const listAlertThumbnails = endpoint({
  method: 'GET',
  path: '/v1/alerts/:alertId/thumbnails',
  operationId: 'list_alert_thumbnails',
  access: 'public',
  tags,
  summary: 'Science, template and difference thumbnails of an alert',
  params: Type.Object({ alertId }),
  response: {
    status: 200,
    description: 'alert_thumbnail resources (attributes.src is the PNG); meta.count',
    schema: listDocument(AlertThumbnail),
  },
  errors: { 404: NO_ALERT },
});

export const getAlertCutout = endpoint({
  method: 'GET',
  path: '/v1/alerts/:alertId/cutouts/:file',
  operationId: 'get_alert_cutout',
  access: 'public',
  tags,
  summary: 'The original FITS cutout of an alert (science, template or difference)',
  description:
    'As the survey sent it (gzipped ZTF cutouts are served unzipped), as an attachment; `Cache-Control: public, max-age=31536000, immutable`. 422 when the stored cutout is not FITS (2016 ZTF packets carry JPEGs).',
  params: Type.Object({ alertId, file: pathParam('`science.fits`, `template.fits` or `difference.fits`.') }),
  response: fileAnswer('application/fits', 'The FITS file'),
  errors: {
    404: 'No alert with this id, no such cutout type, no cutout of this type, or its pack outside the database cannot be read',
    422: 'The stored cutout is not a FITS file',
  },
});

export const getThumbnail = endpoint({
  method: 'GET',
  path: '/v1/thumbnails/:filename',
  operationId: 'get_thumbnail',
  access: 'public',
  tags,
  summary: 'A thumbnail image, rendered from the cutout on first request',
  description: 'Never changes once rendered: served with `Cache-Control: public, max-age=31536000, immutable`.',
  params: Type.Object({ filename: pathParam('Thumbnail file name, as in an alert_thumbnail resource.') }),
  response: fileAnswer('image/png', 'PNG image'),
  errors: {
    404: "No thumbnail of this name, or its cutout's pack outside the database cannot be read",
    422: 'The cutout cannot be rendered',
  },
});
