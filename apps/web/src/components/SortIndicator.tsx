/** Arrow after a sortable header: ▲ ascending, ▼ descending, faint ↕ when unsorted. */
export function SortIndicator({ direction }: { direction: false | 'asc' | 'desc' }) {
  return (
    <span aria-hidden="true" className={`ms-1 small ${direction ? '' : 'text-body-tertiary'}`}>
      {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
    </span>
  );
}
