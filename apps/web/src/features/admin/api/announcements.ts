import type { BodyOf, createAnnouncement as createEndpoint, listAnnouncements, ResponseOf } from '@antares/contract/endpoints';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiFetch, apiGet } from '@/lib/api-client';

import type { ListParams } from './users';

type AnnouncementList = ResponseOf<typeof listAnnouncements>;
export type ManagedAnnouncement = AnnouncementList['data'][number]['attributes'] & { id: string };

export async function getAnnouncements({ page, perPage, sort }: ListParams, signal?: AbortSignal) {
  const document = await apiGet<AnnouncementList>(
    '/announcements',
    { 'page[limit]': perPage, 'page[offset]': (page - 1) * perPage, sort },
    signal,
  );
  const announcements = (document.data ?? []).map((item) => ({ ...item.attributes, id: String(item.id) }));
  return { announcements, count: document.meta?.count ?? announcements.length };
}

export const ANNOUNCEMENTS_KEY = 'admin-announcements';

export function useAnnouncements(params: ListParams) {
  return useQuery({
    queryKey: [ANNOUNCEMENTS_KEY, params],
    queryFn: ({ signal }) => getAnnouncements(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export async function createAnnouncement(attributes: BodyOf<typeof createEndpoint>): Promise<ManagedAnnouncement> {
  const response = await apiFetch('/announcements', { method: 'POST', body: { data: { type: 'announcement', attributes } } });
  const document = (await response.json()) as ResponseOf<typeof createEndpoint>;
  return { ...document.data.attributes, id: String(document.data.id) };
}

export async function setAnnouncementActive(id: string, active: boolean): Promise<void> {
  await apiFetch(`/announcements/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { data: { type: 'announcement', id, attributes: { active } } },
  });
}
