import { ANNOUNCEMENT_VARIANTS } from '@antares/contract';
import type { listAnnouncements, ResponseOf } from '@antares/contract/endpoints';

import { apiGet } from '@/lib/api-client';

type AnnouncementList = ResponseOf<typeof listAnnouncements>;
export type Announcement = AnnouncementList['data'][number]['attributes'] & { id: string };

/**
 * The active banners. Any failure means "no banners": a banner must never block a page.
 */
export async function getActiveAnnouncements(signal?: AbortSignal): Promise<Announcement[]> {
  try {
    const document = await apiGet<AnnouncementList>(
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
