import ListGroup from 'react-bootstrap/ListGroup';

import type { FilterVersion } from '@/features/filters/api/filters';
import { truncateComment } from '@/features/filters/components/versions/version-format';
import { StatusBadge } from '@/features/filters/components/versions/VersionPicker';
import { isoUtcText } from '@/lib/time';

/** The admin versions sidebar: every version, newest first, with its status; a click selects it. */
export function VersionsSidebar({
  versions,
  selectedId,
  onSelect,
}: {
  versions: FilterVersion[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <nav aria-label="Filter versions" data-testid="versions-sidebar">
      <h2 className="h6">Versions</h2>
      {versions.length === 0 ? (
        <p className="small text-body-secondary">No versions yet.</p>
      ) : (
        <ListGroup>
          {versions.map((version) => (
            <ListGroup.Item
              key={version.id}
              action
              as="button"
              type="button"
              active={version.id === selectedId}
              aria-current={version.id === selectedId ? 'true' : undefined}
              onClick={() => onSelect(version.id)}
              className="d-flex flex-column align-items-start gap-1"
            >
              <span className="d-flex w-100 justify-content-between gap-2">
                <span className="fw-semibold">#{version.id}</span>
                <StatusBadge status={version.status} />
              </span>
              <span className="small text-break">{truncateComment(version.comment)}</span>
              <span className="small">{isoUtcText(version.created_at)} (UTC)</span>
            </ListGroup.Item>
          ))}
        </ListGroup>
      )}
    </nav>
  );
}
