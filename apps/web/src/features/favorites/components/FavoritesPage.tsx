import { useState } from 'react';
import { Link } from 'react-router';

import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { LoginPromptButton } from '@/components/LoginPrompt';
import { PageSizeSelect } from '@/components/PageSizeSelect';
import { TablePagination } from '@/components/TablePagination';
import { useFavoriteLoci } from '@/features/favorites/api/get-favorite-loci';
import { useAnnotations } from '@/lib/annotations';
import { pageBounds } from '@/lib/format';
import { useSession } from '@/lib/use-session';

import { LocusSummaryCard, LocusSummarySkeleton } from './LocusSummaryCard';

const PAGE_SIZES = [5, 10, 25, 50, 100] as const;

function SaveObjectsPrompt({ signedIn }: { signedIn: boolean }) {
  return (
    <EmptyState title="Save Objects of Interest">
      <p className="lead">ANTARES allows you to save objects that you're studying so you can easily find them later.</p>
      {signedIn ? (
        <Link to="/" className="btn btn-primary">
          You don't have any favorites yet. Start searching.
        </Link>
      ) : (
        <LoginPromptButton>Login to view your favorite data.</LoginPromptButton>
      )}
    </EmptyState>
  );
}

/**
 * The favorite loci, paged. The ids are taken once when the page opens, so a locus unfavorited here
 * stays listed (no longer highlighted) and can be favorited again.
 */
function FavoriteList({ userId, initialIds }: { userId: string; initialIds: string[] }) {
  const [ids] = useState(initialIds);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(PAGE_SIZES[0]);
  const loci = useFavoriteLoci(userId, ids, page, perPage);

  if (loci.isError) return <ErrorState title="There was a Problem Loading Your Favorites" error={loci.error} />;
  const count = loci.data?.count ?? ids.length;
  const { from, to } = pageBounds(page, perPage, count);
  const pageCount = Math.max(1, Math.ceil(count / perPage));

  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
        <PageSizeSelect
          id="favorites-page-size"
          value={perPage}
          options={PAGE_SIZES}
          onChange={(size) => {
            setPerPage(size);
            setPage(1);
          }}
        />
      </div>
      <div className="d-flex flex-column gap-3" aria-busy={loci.isFetching} data-testid="favorite-list">
        {loci.isPending
          ? Array.from({ length: Math.min(perPage, ids.length) }, (_, i) => <LocusSummarySkeleton key={i} />)
          : loci.data?.loci.map((locus) => <LocusSummaryCard key={locus.id} locus={locus} />)}
      </div>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mt-3">
        <span className="small text-body-secondary" role="status">
          Showing {from} to {to} of {count} entries
        </span>
        <TablePagination page={page} pageCount={pageCount} onChange={setPage} label="Favorites pages" />
      </div>
    </>
  );
}

/** Favorites: the spec's prompt when logged out or empty, otherwise the list of locus summaries. */
export function Component() {
  const { isAuthenticated, user } = useSession();
  const annotations = useAnnotations();

  if (!isAuthenticated || !user) return <SaveObjectsPrompt signedIn={false} />;
  if (annotations.isPending) {
    return (
      <section>
        <h1 className="h3 mb-3">Favorites</h1>
        <div className="d-flex flex-column gap-3" aria-busy="true">
          {Array.from({ length: 3 }, (_, i) => (
            <LocusSummarySkeleton key={i} />
          ))}
        </div>
      </section>
    );
  }
  if (annotations.isError) return <ErrorState title="There was a Problem Loading Your Favorites" error={annotations.error} />;
  const ids = Object.values(annotations.data ?? {})
    .filter((annotation) => annotation.favorited && annotation.locusId)
    .map((annotation) => annotation.locusId)
    .sort();
  if (ids.length === 0) return <SaveObjectsPrompt signedIn />;
  return (
    <section>
      <h1 className="h3 mb-3">Favorites</h1>
      <FavoriteList userId={user.id} initialIds={ids} />
    </section>
  );
}
