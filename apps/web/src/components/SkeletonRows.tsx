/** Placeholder rows while a table loads (the spec's skeleton: 10 rows unless told otherwise). */
export function SkeletonRows({ rows = 10, columns }: { rows?: number; columns: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <tr key={r} aria-hidden="true" data-testid="skeleton-row">
          {Array.from({ length: columns }, (_, c) => (
            <td key={c}>
              <span className="skeleton" />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}
