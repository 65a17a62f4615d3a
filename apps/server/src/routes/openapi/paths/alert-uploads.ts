/** Alert files sent over HTTP into the running pipeline's inbox (routes/alert-uploads). */
import { fail, jsonApi, op, pathParam, type Paths } from '../shared.ts';

const tags = ['Alert uploads'];
/** The content types the route reads as a raw alert file (routes/alert-uploads ALERT_FILE_TYPES). */
const ALERT_FILE_TYPES = [
  'application/avro',
  'application/octet-stream',
  'avro/binary',
  'application/vnd.apache.avro+binary',
  'application/gzip',
];
const binary = { type: 'string', contentMediaType: 'application/octet-stream' };
const noInbox = 'The inbox is switched off on this server (ANTARES_INBOX_DIR=off)';

export const alertUploadPaths: Paths = {
  '/v1/alert_uploads': {
    post: op('post', 'admin', {
      tags,
      operationId: 'create_alert_upload',
      summary: 'Upload an alert file for ingestion',
      description:
        'The body is a ZTF or Rubin Avro alert file (an Avro container of one or more packets), optionally gzipped, up to 512 MiB. It is checked, written to the inbox and ingested by the running pipeline (Level 1, association, Level 2) within seconds; poll the Location for the outcome.',
      requestBody: {
        required: true,
        content: Object.fromEntries(ALERT_FILE_TYPES.map((type) => [type, { schema: binary }])),
      },
      responses: {
        202: {
          ...jsonApi('Accepted: an alert_upload resource with status "queued"'),
          headers: { Location: { description: 'URL of the upload (GET /v1/alert_uploads/{uploadId})', schema: { type: 'string' } } },
        },
        ...fail({
          400: 'Empty, or not an alert file that can be ingested (the detail says why)',
          413: 'Over ANTARES_UPLOAD_MAX_BODY_MB (64 MB), or over ANTARES_UPLOAD_MAX_UNCOMPRESSED_MB (64 MB) once decompressed',
          415: 'Not one of the alert file content types',
          503: noInbox,
        }),
      },
    }),
  },
  '/v1/alert_uploads/{uploadId}': {
    get: op('get', 'admin', {
      tags,
      operationId: 'get_alert_upload',
      summary: 'Where an upload stands: queued, ingested (with the counts) or failed (with the reason)',
      parameters: [
        pathParam('uploadId', 'Upload id, as returned by POST /v1/alert_uploads.', { type: 'string', pattern: '^\\d{14}-[0-9a-f]{12}$' }),
      ],
      responses: {
        200: jsonApi('An alert_upload resource: status, summary, error'),
        ...fail({ 404: 'No upload with this id', 503: noInbox }),
      },
    }),
  },
};
