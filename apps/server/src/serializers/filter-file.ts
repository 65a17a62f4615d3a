import type { ResourceObject } from '@antares/contract';
import type { FilterFileRow } from '@antares/db';

/** A `filter_file`: one data file of a filter (or of a version), named as REQUIRES_FILES lists it; self downloads it. */
export function filterFileResource(base: string, filterId: number, row: FilterFileRow, meta?: Record<string, unknown>): ResourceObject {
  return {
    type: 'filter_file',
    id: row.name,
    attributes: { name: row.name, size: Number(row.size), sha256: row.sha256, uploaded_at: new Date(row.uploaded_at).toISOString() },
    links: { self: `${base}/v1/filters/${filterId}/files/${encodeURIComponent(row.name)}` },
    ...(meta ? { meta } : {}),
  };
}
