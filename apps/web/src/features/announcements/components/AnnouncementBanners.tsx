import Alert from 'react-bootstrap/Alert';

import type { Announcement } from '@/features/announcements/api/get-active-announcements';

export function AnnouncementBanners({ announcements }: { announcements: Announcement[] }) {
  if (announcements.length === 0) return null;
  return (
    <div className="announcements" role="region" aria-label="Announcements">
      {announcements.map((announcement) => (
        <Alert
          key={announcement.id}
          variant={announcement.variant}
          className="mb-0 rounded-0 text-center py-2"
          data-testid="announcement-banner"
        >
          {announcement.message}
        </Alert>
      ))}
    </div>
  );
}
