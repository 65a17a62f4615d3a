import type { ResourceObject } from '@antares/contract';

import type { AlertUpload } from '../services/alert-upload-service.ts';

/** An `alert_upload`: an alert file sent over HTTP and where its ingestion stands. */
export function alertUploadResource(base: string, upload: AlertUpload): ResourceObject {
  return {
    type: 'alert_upload',
    id: upload.id,
    attributes: { status: upload.status, summary: upload.summary ?? null, error: upload.error ?? null },
    links: { self: `${base}/v1/alert_uploads/${upload.id}` },
  };
}
