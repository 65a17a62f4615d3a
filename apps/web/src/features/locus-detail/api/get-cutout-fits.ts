import { useQuery } from '@tanstack/react-query';

import { apiFetch } from '@/lib/api-client';
import { type FitsPixels, readFitsImage } from '@/lib/fits-image';

import type { CutoutType } from './cutout-url';

export { cutoutFitsUrl, type CutoutType } from './cutout-url';

/**
 * The cutout's pixels, read from the FITS file itself (not a JSON copy): one endpoint serves both the
 * viewer and the download, and the browser sees exactly the values a FITS viewer would.
 */
export async function getCutoutPixels(alertId: string, type: CutoutType, signal?: AbortSignal): Promise<FitsPixels> {
  const response = await apiFetch(`/alerts/${encodeURIComponent(alertId)}/cutouts/${type}.fits`, { signal, accept: 'application/fits' });
  return readFitsImage(await response.arrayBuffer());
}

export function useCutoutPixels(alertId: string, type: CutoutType) {
  return useQuery({
    queryKey: ['cutout-fits', alertId, type],
    queryFn: ({ signal }) => getCutoutPixels(alertId, type, signal),
    staleTime: Infinity,
    retry: false,
  });
}
