import { useQuery } from '@tanstack/react-query';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';

export interface AlertThumbnail {
  id: string;
  filename: string;
  filemime: string;
  src: string;
  thumbnail_type: 'science' | 'template' | 'difference';
}

export async function getAlertThumbnails(alertId: string, signal?: AbortSignal): Promise<AlertThumbnail[]> {
  const document = await apiGet<JsonApiDocument<JsonApiResource<Omit<AlertThumbnail, 'id'>>[]>>(
    `/alerts/${encodeURIComponent(alertId)}/thumbnails`,
    undefined,
    signal,
  );
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
