import Pagination from 'react-bootstrap/Pagination';

/** Numbered pagination with a window of 5 pages around the current one. */
export function TablePagination({
  page,
  pageCount,
  onChange,
  label = 'Pagination',
}: {
  page: number;
  pageCount: number;
  onChange: (page: number) => void;
  label?: string;
}) {
  if (pageCount <= 1) return null;
  const start = Math.max(1, Math.min(page - 2, pageCount - 4));
  const end = Math.min(pageCount, start + 4);
  const pages: number[] = [];
  for (let p = start; p <= end; p += 1) pages.push(p);
  return (
    <nav aria-label={label}>
      <Pagination size="sm" className="mb-0">
        <Pagination.First disabled={page <= 1} onClick={() => onChange(1)} aria-label="First page" />
        <Pagination.Prev disabled={page <= 1} onClick={() => onChange(page - 1)} aria-label="Previous page" />
        {pages.map((p) => (
          <Pagination.Item key={p} active={p === page} onClick={() => onChange(p)} aria-label={`Page ${p}`}>
            {p}
          </Pagination.Item>
        ))}
        <Pagination.Next disabled={page >= pageCount} onClick={() => onChange(page + 1)} aria-label="Next page" />
        <Pagination.Last disabled={page >= pageCount} onClick={() => onChange(pageCount)} aria-label="Last page" />
      </Pagination>
    </nav>
  );
}
