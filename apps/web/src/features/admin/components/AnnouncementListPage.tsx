import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Form from 'react-bootstrap/Form';
import { Link, useRevalidator } from 'react-router';

import { ActionError } from '@/components/ActionError';
import { DataTable } from '@/components/DataTable';
import { ErrorState } from '@/components/ErrorState';
import { ANNOUNCEMENTS_KEY, type ManagedAnnouncement, setAnnouncementActive, useAnnouncements } from '@/features/admin/api/announcements';
import { isoUtcText } from '@/lib/time';
import { PAGE_SIZE_OPTIONS, useServerList } from '@/lib/use-server-list';

/** Text colour on each variant's badge (light and warning need dark text). */
const DARK_TEXT = new Set(['light', 'warning', 'info']);

/**
 * Announcement Management: every announcement, newest state first (default sort active descending).
 * The Active switch saves at once; on failure it reverts and the error shows as JSON. After each toggle
 * the banners are refreshed.
 */
export function Component() {
  const list = useServerList({ id: 'active', desc: true });
  const announcements = useAnnouncements(list.params);
  const client = useQueryClient();
  const revalidator = useRevalidator();
  const [saving, setSaving] = useState<Record<string, boolean>>({});
  const [actionError, setActionError] = useState<unknown>(null);

  const toggle = async (announcement: ManagedAnnouncement, active: boolean) => {
    setActionError(null);
    setSaving((s) => ({ ...s, [announcement.id]: active }));
    try {
      await setAnnouncementActive(announcement.id, active);
      await client.invalidateQueries({ queryKey: [ANNOUNCEMENTS_KEY] });
    } catch (error) {
      setActionError(error);
    } finally {
      setSaving(({ [announcement.id]: _, ...rest }) => rest);
      // The banners at the top of the page follow the change.
      void revalidator.revalidate();
    }
  };

  const columns = useMemo<ColumnDef<ManagedAnnouncement>[]>(
    () => [
      {
        id: 'created_at',
        header: 'Created At (UTC)',
        accessorKey: 'created_at',
        meta: { className: 'text-nowrap' },
        cell: ({ row }) => isoUtcText(row.original.created_at),
      },
      {
        id: 'active',
        header: 'Active',
        accessorKey: 'active',
        cell: ({ row }) => {
          const a = row.original;
          const pendingValue = saving[a.id];
          return (
            <Form.Check
              type="switch"
              id={`announcement-${a.id}-active`}
              aria-label={`Active: ${a.message.slice(0, 80)}`}
              checked={pendingValue ?? a.active}
              disabled={pendingValue !== undefined}
              onChange={(event) => void toggle(a, event.target.checked)}
            />
          );
        },
      },
      {
        id: 'message',
        header: 'Message',
        accessorKey: 'message',
        meta: { className: 'cell-fill' },
        cell: ({ row }) => (
          <div className="truncate-600" title={row.original.message}>
            {row.original.message}
          </div>
        ),
      },
      {
        id: 'variant',
        header: 'Type',
        accessorKey: 'variant',
        cell: ({ row }) => (
          <Badge bg={row.original.variant} text={DARK_TEXT.has(row.original.variant) ? 'dark' : undefined} className="border">
            {row.original.variant}
          </Badge>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [saving],
  );

  return (
    <section>
      <div className="d-flex align-items-center gap-3 mb-3">
        <h1 className="h3 mb-0">Announcements</h1>
        <Link to="/admin/announcements/create" className="btn btn-primary btn-sm" aria-label="New Announcement" title="New Announcement">
          <span aria-hidden="true" className="fw-bold">
            +
          </span>
        </Link>
      </div>
      {actionError !== null && (
        <ActionError title="Error changing the announcement" error={actionError} onClose={() => setActionError(null)} />
      )}
      {announcements.isError ? (
        <ErrorState
          title="Error Loading Announcements"
          message="There was an error loading our announcements."
          error={announcements.error}
        />
      ) : (
        <DataTable
          id="announcement-table"
          caption="Announcements"
          columns={columns}
          data={announcements.data?.announcements ?? []}
          loading={announcements.isPending}
          getRowId={(a) => a.id}
          server={list.paging(announcements.data?.count ?? 0)}
          sorting={list.sorting}
          onSortingChange={list.onSortingChange}
          pageSizeOptions={PAGE_SIZE_OPTIONS}
          emptyText="No announcements yet"
        />
      )}
    </section>
  );
}
