import type { ResourceObject } from '@antares/contract';
import type { ThumbnailInfo } from '@antares/db';

export function thumbnailResource(base: string, t: ThumbnailInfo): ResourceObject {
  return {
    type: 'alert_thumbnail',
    id: t.filename,
    attributes: {
      filename: t.filename,
      filemime: 'image/png',
      src: `${base}/v1/thumbnails/${encodeURIComponent(t.filename)}`,
      thumbnail_type: t.thumbnail_type,
    },
  };
}

const TYPE_ORDER = { science: 0, template: 1, difference: 2 };

/** `meta.newest_thumbnails` of a locus: science, template, difference. */
export function newestThumbnailsMeta(base: string, thumbnails: ThumbnailInfo[]) {
  return [...thumbnails]
    .sort((a, b) => TYPE_ORDER[a.thumbnail_type] - TYPE_ORDER[b.thumbnail_type])
    .map((t) => ({ data: thumbnailResource(base, t) }));
}
