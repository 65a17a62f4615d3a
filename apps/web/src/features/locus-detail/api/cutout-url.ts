import { apiUrl } from '@/lib/api-client';

export type CutoutType = 'science' | 'template' | 'difference';

/**
 * The original FITS cutout's address: the viewer reads its pixels and the download links save it.
 * Apart from the reader (get-cutout-fits.ts) so the gallery's links do not load it.
 */
export function cutoutFitsUrl(alertId: string, type: CutoutType): string {
  return apiUrl(`/alerts/${encodeURIComponent(alertId)}/cutouts/${type}.fits`);
}
