import type { ReactNode } from 'react';

import type { Filter } from '@/features/filters/api/filters';
import { isoUtcText } from '@/lib/time';

import { EnabledBadge } from './EnabledBadge';

/** The top of a filter page: name, 'Created at {date} (UTC)', description, and the Public switch when given. */
export function FilterSummary({ filter, publicSwitch }: { filter: Filter; publicSwitch?: ReactNode }) {
  return (
    <header className="mb-3">
      <h1 className="h3 mb-1">{filter.name}</h1>
      <p className="small text-body-secondary mb-2">
        Created at {isoUtcText(filter.created_at)} (UTC) · Enabled: <EnabledBadge filter={filter} />
      </p>
      <p className="mb-2 text-break" style={{ whiteSpace: 'pre-wrap' }}>
        {filter.description}
      </p>
      {publicSwitch}
    </header>
  );
}
