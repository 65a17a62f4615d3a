import CloseButton from 'react-bootstrap/CloseButton';

import type { SearchFilter } from '@/lib/locus-query';

/** The applied filters, each removable. */
export function ActiveFilters({ filters, onRemove }: { filters: SearchFilter[]; onRemove: (index: number) => void }) {
  return (
    <section className="mb-3" aria-labelledby="active-filters-heading">
      <h3 id="active-filters-heading" className="small fw-semibold mb-1">
        Active Filters
      </h3>
      {filters.length === 0 ? (
        <p className="small text-body-secondary mb-0">No filters applied.</p>
      ) : (
        <ul className="list-unstyled mb-0" data-testid="active-filters">
          {filters.map((filter, index) => (
            <li
              key={`${filter.text}-${index}`}
              className="d-flex align-items-start justify-content-between gap-2 border rounded px-2 py-1 mb-1 small bg-body"
            >
              <span className="text-break">{filter.text}</span>
              <CloseButton
                aria-label={`Remove filter ${filter.text}`}
                onClick={() => onRemove(index)}
                style={{ fontSize: '0.6rem' }}
                className="mt-1"
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
