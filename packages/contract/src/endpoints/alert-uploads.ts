/** Alert files sent over HTTP into the running pipeline's inbox (admins only). */
import Type from 'typebox';

import { pathParam, resource } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Alert uploads'];

/** The content types read as a raw alert file (anything else is a 415). */
export const ALERT_FILE_TYPES = [
  'application/octet-stream',
  'application/avro',
  'avro/binary',
  'application/vnd.apache.avro+binary',
  'application/gzip',
];

const NO_INBOX = 'The inbox is switched off on this server (ANTARES_INBOX_DIR=off)';

export const AlertUpload = resource(
  'alert_upload',
  {
    status: Type.Union([Type.Literal('queued'), Type.Literal('ingested'), Type.Literal('failed')]),
    summary: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: "The ingestion's counts once ingested" }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why ingestion failed' }),
  },
  { links: true },
);

const uploadDocument = Type.Object({ data: AlertUpload, links: Type.Object({ self: Type.String() }) });

export const createAlertUpload = endpoint({
  method: 'POST',
  path: '/v1/alert_uploads',
  operationId: 'create_alert_upload',
  access: 'admin',
  tags,
  summary: 'Upload an alert file for ingestion',
  description:
    "The body is a ZTF or Rubin Avro alert file (an Avro container of one or more packets, or one Rubin alert framed as Rubin's Kafka stream sends it: a zero byte, the 4-byte schema id, the record), optionally gzipped, up to the server's upload limits (64 MB by default, before and after decompression). It is checked, written to the inbox and ingested by the running pipeline (Level 1, association, Level 2) within seconds; poll the Location for the outcome.",
  body: { kind: 'file', mediaTypes: ALERT_FILE_TYPES, schema: Type.String({ contentMediaType: 'application/octet-stream' }) },
  response: {
    status: 202,
    description: 'Accepted: an alert_upload resource with status "queued"',
    schema: uploadDocument,
    headers: { Location: 'URL of the upload (GET /v1/alert_uploads/{uploadId})' },
  },
  errors: {
    400: 'Empty, or not an alert file that can be ingested (the detail says why)',
    413: 'Over ANTARES_UPLOAD_MAX_BODY_MB (64 MB), or over ANTARES_UPLOAD_MAX_UNCOMPRESSED_MB (64 MB) once decompressed',
    415: 'Not one of the alert file content types',
    503: NO_INBOX,
  },
});

export const getAlertUpload = endpoint({
  method: 'GET',
  path: '/v1/alert_uploads/:uploadId',
  operationId: 'get_alert_upload',
  access: 'admin',
  tags,
  summary: 'Where an upload stands: queued, ingested (with the counts) or failed (with the reason)',
  params: Type.Object({
    uploadId: pathParam('Upload id, as returned by POST /v1/alert_uploads (`<yyyymmddhhmmss>-<12 hex digits>`).'),
  }),
  response: { status: 200, description: 'An alert_upload resource: status, summary, error', schema: uploadDocument },
  errors: { 404: 'No upload with this id', 503: NO_INBOX },
});
