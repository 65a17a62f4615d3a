import Badge from 'react-bootstrap/Badge';

import type { Filter } from '@/features/filters/api/filters';

/** Enabled: a Yes badge plus the enabled version number, or a No badge. */
export function EnabledBadge({ filter }: { filter: Pick<Filter, 'enabled' | 'enabled_version'> }) {
  if (!filter.enabled || !filter.enabled_version) return <Badge bg="secondary">No</Badge>;
  return (
    <span className="text-nowrap">
      <Badge bg="success">Yes</Badge> <span className="small">version #{filter.enabled_version}</span>
    </span>
  );
}
