import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';

import { EmptyState } from '@/components/EmptyState';
import { LoginPromptButton } from '@/components/LoginPrompt';
import { SectionCard } from '@/components/SectionCard';
import { type Filter, useUserFilters } from '@/features/filters/api/filters';
import { isoUtcText } from '@/lib/time';
import { useServerList } from '@/lib/use-server-list';
import { useSession } from '@/lib/use-session';

import { EnabledBadge } from './EnabledBadge';
import { FilterEnvironmentList } from './FilterEnvironmentList';
import { FilterTable } from './FilterTable';
import { usePublicToggle } from './use-public-toggle';

/** What filters may import, under every state of the page: authors need it before their first filter. */
function FilterEnvironmentSection() {
  return (
    <SectionCard title="Filter Environment">
      <p>
        <Link to="/filters/environment">The Filter Environment page</Link> lists every module a filter can import here.
      </p>
      <FilterEnvironmentList />
    </SectionCard>
  );
}

function FindObjectsOfInterest({ signedIn }: { signedIn: boolean }) {
  return (
    <EmptyState title="Find Objects of Interest">
      <p className="lead">
        Filters help you sift through the stream of survey alerts: write Python code that selects or tags the loci you care about, and
        ANTARES runs it on every new alert.
      </p>
      {signedIn ? (
        <Link to="/filters/create" className="btn btn-primary">
          Create your first Filter
        </Link>
      ) : (
        <LoginPromptButton>Login to create your first Filter</LoginPromptButton>
      )}
    </EmptyState>
  );
}

/** Filters: the signed-in user's filters with their Public switches; 'Find Objects of Interest' when signed out or empty. */
export function Component() {
  const { isAuthenticated, user } = useSession();
  const list = useServerList({ id: 'created_at', desc: true });
  const filters = useUserFilters(isAuthenticated ? user?.id : undefined, list.params);
  const visibility = usePublicToggle();

  const columns: ColumnDef<Filter>[] = [
    {
      id: 'name',
      header: 'Name',
      accessorKey: 'name',
      cell: ({ row }) => <Link to={`/filters/${row.original.id}`}>{row.original.name}</Link>,
    },
    {
      id: 'description',
      header: 'Description',
      enableSorting: false,
      meta: { className: 'cell-fill' },
      cell: ({ row }) => (
        <div className="truncate-600" title={row.original.description}>
          {row.original.description}
        </div>
      ),
    },
    { id: 'public', header: 'Public', accessorKey: 'public', cell: ({ row }) => visibility.switchFor(row.original) },
    { id: 'enabled', header: 'Enabled', enableSorting: false, cell: ({ row }) => <EnabledBadge filter={row.original} /> },
    {
      id: 'created_at',
      header: 'Created At (UTC)',
      accessorKey: 'created_at',
      meta: { className: 'text-nowrap' },
      cell: ({ row }) => isoUtcText(row.original.created_at),
    },
  ];

  if (!isAuthenticated || (filters.isSuccess && filters.data.count === 0)) {
    return (
      <>
        <FindObjectsOfInterest signedIn={isAuthenticated} />
        <FilterEnvironmentSection />
      </>
    );
  }
  return (
    <section>
      <div className="d-flex align-items-center gap-3 mb-3">
        <h1 className="h3 mb-0">My Filters</h1>
        <Link to="/filters/create" className="btn btn-primary btn-sm">
          New Filter
        </Link>
      </div>
      {visibility.elements}
      <FilterTable id="filter-table" caption="My filters" columns={columns} query={filters} list={list} emptyText="No filters" />
      <div className="mt-4">
        <FilterEnvironmentSection />
      </div>
    </section>
  );
}
