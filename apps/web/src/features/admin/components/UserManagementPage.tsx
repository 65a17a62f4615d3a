import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';

import { ActionError } from '@/components/ActionError';
import { ConfirmationDialog } from '@/components/ConfirmationDialog';
import { DataTable } from '@/components/DataTable';
import { ErrorState } from '@/components/ErrorState';
import { type ManagedUser, setUserFlag, type UserFlag, USERS_KEY, useUsers } from '@/features/admin/api/users';
import { getSession, signIn } from '@/lib/session';
import { PAGE_SIZE_OPTIONS, useServerList } from '@/lib/use-server-list';

interface PendingChange {
  user: ManagedUser;
  flag: UserFlag;
  value: boolean;
}

const FLAG_LABEL: Record<UserFlag, string> = { admin: 'Admin', staff: 'Staff' };

/**
 * User Management: every account with its admin and staff switches. Toggling asks for a confirmation
 * (typing the username) that warns it may be dangerous; cancel or failure reverts the switch, success
 * reloads the list.
 */
export function Component() {
  const list = useServerList({ id: 'username', desc: false });
  const users = useUsers(list.params);
  const client = useQueryClient();
  const [pending, setPending] = useState<PendingChange | null>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<unknown>(null);

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      const updated = await setUserFlag(pending.user.id, pending.flag, pending.value);
      // Changing one's own flags changes what this session may do.
      const session = getSession();
      if (session.user?.id === updated.id) signIn({ ...session.user, admin: updated.admin, staff: updated.staff });
      await client.invalidateQueries({ queryKey: [USERS_KEY] });
    } catch (error) {
      setActionError(error);
    } finally {
      setBusy(false);
      setPending(null);
    }
  };

  const columns = useMemo<ColumnDef<ManagedUser>[]>(() => {
    const flagColumn = (flag: UserFlag): ColumnDef<ManagedUser> => ({
      id: flag,
      header: FLAG_LABEL[flag],
      cell: ({ row }) => {
        const user = row.original;
        const shown = pending && pending.user.id === user.id && pending.flag === flag ? pending.value : user[flag];
        return (
          <Form.Check
            type="switch"
            id={`user-${user.id}-${flag}`}
            aria-label={`${FLAG_LABEL[flag]}: ${user.username}`}
            checked={shown}
            disabled={pending !== null}
            onChange={(event) => {
              setActionError(null);
              setPending({ user, flag, value: event.target.checked });
            }}
          />
        );
      },
    });
    return [
      { id: 'username', header: 'Username', accessorKey: 'username' },
      {
        id: 'email',
        header: 'Email',
        accessorKey: 'email',
        cell: ({ row }) => <a href={`mailto:${row.original.email}`}>{row.original.email}</a>,
      },
      { id: 'name', header: 'Name', accessorKey: 'name' },
      flagColumn('admin'),
      flagColumn('staff'),
    ];
  }, [pending]);

  // The dialog keeps showing the last change while it fades out.
  const lastPending = useRef<PendingChange | null>(null);
  if (pending) lastPending.current = pending;
  const shown = pending ?? lastPending.current;
  const verb = shown ? (shown.value ? 'Grant' : 'Revoke') : '';
  return (
    <section>
      <h1 className="h3 mb-3">User Management</h1>
      {actionError !== null && <ActionError title="Error changing the user" error={actionError} onClose={() => setActionError(null)} />}
      {users.isError ? (
        <ErrorState title="Error Loading Users" message="There was an error loading users." error={users.error} />
      ) : (
        <DataTable
          id="user-management-table"
          caption="Users"
          columns={columns}
          data={users.data?.users ?? []}
          loading={users.isPending}
          getRowId={(user) => user.id}
          server={list.paging(users.data?.count ?? 0)}
          sorting={list.sorting}
          onSortingChange={list.onSortingChange}
          pageSizeOptions={PAGE_SIZE_OPTIONS}
          emptyText="No users"
        />
      )}
      <ConfirmationDialog
        show={pending !== null}
        title={shown ? `${verb} ${shown.flag} ${shown.value ? 'to' : 'of'} ${shown.user.username}` : ''}
        confirmationText={shown?.user.username ?? ''}
        confirmLabel={verb}
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      >
        {shown && (
          <Alert variant="warning" className="mb-0">
            <strong>This may be a dangerous operation.</strong> You are about to {shown.value ? 'grant' : 'revoke'} the{' '}
            <strong>{shown.flag}</strong> flag {shown.value ? 'to' : 'of'} the user <strong>{shown.user.username}</strong>.
          </Alert>
        )}
      </ConfirmationDialog>
    </section>
  );
}
