import type { listAlertThumbnails, ResponseOf } from '@antares/contract/endpoints';
import { useQuery } from '@tanstack/react-query';

import { apiGet } from '@/lib/api-client';

type ThumbnailList = ResponseOf<typeof listAlertThumbnails>;
export type AlertThumbnail = ThumbnailList['data'][number]['attributes'] & { id: string };

export async function getAlertThumbnails(alertId: string, signal?: AbortSignal): Promise<AlertThumbnail[]> {
  const document = await apiGet<ThumbnailList>(`/alerts/${encodeURIComponent(alertId)}/thumbnails`, undefined, signal);
  return (document.data ?? []).map((item) => ({ ...item.attributes, id: item.id }));
}

export function useAlertThumbnails(alertId: string | undefined) {
  return useQuery({
    queryKey: ['alert-thumbnails', alertId],
    queryFn: ({ signal }) => getAlertThumbnails(alertId ?? '', signal),
    enabled: Boolean(alertId),
    staleTime: Infinity,
  });
}
