import type { AnnouncementVariant } from '@antares/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiFetch, apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';

import type { ListParams } from './users';

export interface ManagedAnnouncement {
  id: string;
  message: string;
  variant: AnnouncementVariant;
  active: boolean;
  created_at?: string;
}

type Attributes = Omit<ManagedAnnouncement, 'id'>;

export async function getAnnouncements({ page, perPage, sort }: ListParams, signal?: AbortSignal) {
  const document = await apiGet<JsonApiDocument<JsonApiResource<Attributes>[]>>(
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

export async function createAnnouncement(attributes: Omit<ManagedAnnouncement, 'id' | 'created_at'>): Promise<ManagedAnnouncement> {
  const response = await apiFetch('/announcements', { method: 'POST', body: { data: { type: 'announcement', attributes } } });
  const document = (await response.json()) as JsonApiDocument<JsonApiResource<Attributes>>;
  return { ...document.data.attributes, id: String(document.data.id) };
}

export async function setAnnouncementActive(id: string, active: boolean): Promise<void> {
  await apiFetch(`/announcements/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { data: { type: 'announcement', id, attributes: { active } } },
  });
}
