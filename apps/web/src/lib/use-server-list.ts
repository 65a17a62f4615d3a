import type { SortingState } from '@tanstack/react-table';
import { useState } from 'react';

/** Paging and sorting parameters of a server-side list. */
export interface ListParams {
  page: number;
  perPage: number;
  /** API sort: a field, '-' prefixed for descending. */
  sort: string;
}

/** Page-size options and default from the spec's business constants. */
export const PAGE_SIZE_OPTIONS = [5, 10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 5;

/**
 * Paging and sorting state of a server-side table, and its API parameters. An empty sort falls back to
 * the default; a sort or page-size change goes back to page 1.
 */
export function useServerList(defaultSort: { id: string; desc: boolean }) {
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(DEFAULT_PAGE_SIZE);
  const [sorting, setSorting] = useState<SortingState>([defaultSort]);
  const current = sorting[0] ?? defaultSort;
  const params: ListParams = { page, perPage, sort: `${current.desc ? '-' : ''}${current.id}` };
  return {
    params,
    sorting,
    onSortingChange: (next: SortingState) => {
      setSorting(next.length ? next : [defaultSort]);
      setPage(1);
    },
    paging: (count: number) => ({
      count,
      page,
      perPage,
      onPageChange: setPage,
      onPerPageChange: (size: number) => {
        setPerPage(size);
        setPage(1);
      },
    }),
    /** After a change made the current page empty (e.g. fewer rows), step back. */
    clampPage: (count: number) => {
      const last = Math.max(1, Math.ceil(count / perPage));
      if (page > last) setPage(last);
    },
  };
}
