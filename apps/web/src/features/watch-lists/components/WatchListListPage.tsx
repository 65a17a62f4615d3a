import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';

import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { LoginPromptButton } from '@/components/LoginPrompt';
import { PageSizeSelect } from '@/components/PageSizeSelect';
import { TablePagination } from '@/components/TablePagination';
import { deleteWatchLists, useWatchLists, WATCH_LISTS_KEY } from '@/features/watch-lists/api/watch-lists';
import { pageBounds } from '@/lib/format';
import { PAGE_SIZE_OPTIONS, useServerList } from '@/lib/use-server-list';
import { useSession } from '@/lib/use-session';

import { DeleteWatchListsDialog } from './DeleteWatchListsDialog';
import { keepShown, NO_SELECTION, type RangeSelection, selectRow, toggleAll } from './range-selection';
import { WatchListTable } from './WatchListTable';

function TrackObjectsOfInterest({ signedIn }: { signedIn: boolean }) {
  return (
    <EmptyState title="Track Objects of Interest">
      <p className="lead">
        Watch lists track survey alerts at sky positions you choose, and can notify a chat channel when a new alert arrives near one of
        them.
      </p>
      {signedIn ? (
        <Link to="/watch-lists/create" className="btn btn-primary">
          Create your first Watch List
        </Link>
      ) : (
        <LoginPromptButton>Login to create your first Watch List</LoginPromptButton>
      )}
    </EmptyState>
  );
}

/**
 * Watch lists: 'Track Objects of Interest' when logged out or empty; otherwise the user's lists, newest
 * first, with New Watch List, Delete Watch List(s) (the selected rows, deleted in parallel once the
 * user confirms) and paging.
 */
export function Component() {
  const { isAuthenticated, user } = useSession();
  const list = useServerList({ id: 'created_at', desc: true });
  const watchLists = useWatchLists(isAuthenticated ? user?.id : undefined, list.params);
  const client = useQueryClient();
  const [selection, setSelection] = useState<RangeSelection>(NO_SELECTION);
  const [deleting, setDeleting] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const rows = watchLists.data?.watchLists ?? [];
  const order = rows.map((w) => w.id);
  const orderKey = order.join(',');
  const count = watchLists.data?.count ?? 0;

  // A refresh or another page: only rows still shown stay selected.
  useEffect(() => {
    setSelection((current) => keepShown(current, orderKey ? orderKey.split(',') : []));
  }, [orderKey]);
  useEffect(() => {
    if (watchLists.isSuccess) list.clampPage(count);
  }, [count, watchLists.isSuccess]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!isAuthenticated || !user) return <TrackObjectsOfInterest signedIn={false} />;
  if (watchLists.isSuccess && count === 0) return <TrackObjectsOfInterest signedIn />;

  const remove = async () => {
    setDeleting(true);
    // The spec: a deletion failure is not shown; the lists that failed stay selected to try again.
    const { failed } = await deleteWatchLists([...selection.ids]);
    setSelection({ ids: new Set(failed), anchor: null });
    await client.invalidateQueries({ queryKey: WATCH_LISTS_KEY });
    setDeleting(false);
    setConfirming(false);
  };
  // Only rows of the shown page stay selected (keepShown): the dialog can name every one.
  const selectedNames = rows.filter((w) => selection.ids.has(w.id)).map((w) => w.name);

  const paging = list.paging(count);
  const { from, to } = pageBounds(paging.page, paging.perPage, count);
  return (
    <section>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0 me-2">Watch Lists</h1>
        <Link to="/watch-lists/create" className="btn btn-primary btn-sm">
          New Watch List
        </Link>
        <Button variant="danger" size="sm" disabled={selection.ids.size === 0 || deleting} onClick={() => setConfirming(true)}>
          {deleting ? 'Deleting...' : 'Delete Watch List(s)'}
        </Button>
      </div>
      <DeleteWatchListsDialog
        show={confirming}
        names={selectedNames}
        busy={deleting}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
      {watchLists.isError ? (
        <ErrorState title="Error Loading Watch Lists" message="There was an error loading your watch lists." error={watchLists.error} />
      ) : (
        <>
          <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
            <PageSizeSelect
              id="watch-list-page-size"
              value={paging.perPage}
              options={PAGE_SIZE_OPTIONS}
              onChange={paging.onPerPageChange}
            />
            <span className="small text-body-secondary" aria-live="polite">
              {selection.ids.size > 0
                ? `${selection.ids.size} selected (Shift-click selects a range, Ctrl-click adds a row)`
                : 'Click rows to select them; Shift-click selects a range.'}
            </span>
          </div>
          <WatchListTable
            watchLists={rows}
            loading={watchLists.isPending}
            selection={selection}
            onSelect={(id, gesture) => setSelection((current) => selectRow(current, order, id, gesture))}
            onToggleAll={() => setSelection((current) => toggleAll(current, order))}
          />
          <div className="d-flex flex-wrap justify-content-between align-items-center gap-2">
            <span className="small text-body-secondary" role="status">
              Showing {from} to {to} of {count} entries
            </span>
            <TablePagination
              page={paging.page}
              pageCount={Math.max(1, Math.ceil(count / paging.perPage))}
              onChange={paging.onPageChange}
              label="Watch list pages"
            />
          </div>
        </>
      )}
    </section>
  );
}
