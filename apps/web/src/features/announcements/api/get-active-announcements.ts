import { ANNOUNCEMENT_VARIANTS, type AnnouncementVariant } from '@antares/contract';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';

export interface Announcement {
  id: string;
  message: string;
  variant: AnnouncementVariant;
  active: boolean;
  created_at?: string;
}

type AnnouncementAttributes = Omit<Announcement, 'id'>;

/**
 * The active banners. Any failure means "no banners": a banner must never block a page.
 */
export async function getActiveAnnouncements(signal?: AbortSignal): Promise<Announcement[]> {
  try {
    const document = await apiGet<JsonApiDocument<JsonApiResource<AnnouncementAttributes>[]>>(
      '/announcements',
      { filter: [{ field: 'active', op: 'eq', value: true }], 'page[limit]': 100, 'page[offset]': 0, sort: '-created_at' },
      signal,
    );
    return (document.data ?? [])
      .map((item) => ({ ...item.attributes, id: item.id }))
      .filter((item) => item.active !== false && typeof item.message === 'string')
      .map((item) => ({ ...item, variant: ANNOUNCEMENT_VARIANTS.includes(item.variant) ? item.variant : 'info' }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    return [];
  }
}
