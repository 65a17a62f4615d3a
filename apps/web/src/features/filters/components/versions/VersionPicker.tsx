import Badge from 'react-bootstrap/Badge';
import Form from 'react-bootstrap/Form';

import type { FilterVersion } from '@/features/filters/api/filters';
import { STATUS_BADGE, statusText, type VersionStatus } from '@/features/filters/api/transitions';
import { isoUtcText } from '@/lib/time';

import { versionLabel } from './version-format';

export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  const bg = STATUS_BADGE[status as VersionStatus] ?? 'secondary';
  return (
    <Badge bg={bg} text={bg === 'warning' || bg === 'info' ? 'dark' : undefined} data-testid={testId}>
      {statusText(status)}
    </Badge>
  );
}

/** The version dropdown (comments cut at 30 characters) and what is known about the selected version. */
export function VersionPicker({
  versions,
  selected,
  onSelect,
}: {
  versions: FilterVersion[];
  selected: FilterVersion | undefined;
  onSelect: (id: string) => void;
}) {
  const options = selected && !versions.some((v) => v.id === selected.id) ? [selected, ...versions] : versions;
  return (
    <div className="mb-2">
      <div className="d-flex flex-wrap align-items-center gap-2">
        <Form.Label htmlFor="version-select" className="mb-0 fw-semibold">
          Version
        </Form.Label>
        <Form.Select id="version-select" size="sm" className="w-auto" value={selected?.id ?? ''} onChange={(e) => onSelect(e.target.value)}>
          {!selected && <option value="">Select a version</option>}
          {options.map((version) => (
            <option key={version.id} value={version.id}>
              {versionLabel(version)}
            </option>
          ))}
        </Form.Select>
        {selected && <StatusBadge status={selected.status} testId="version-status" />}
      </div>
      {selected && (
        <dl className="small text-body-secondary mb-0 mt-2 version-facts">
          <dt>Comment</dt>
          <dd className="text-break">{selected.comment}</dd>
          <dt>Submitted</dt>
          <dd>{isoUtcText(selected.created_at)} (UTC)</dd>
          {selected.filter_class && (
            <>
              <dt>Filter class</dt>
              <dd data-testid="version-filter-class">
                <code>{selected.filter_class}</code>
              </dd>
            </>
          )}
          {selected.feedback && (
            <>
              <dt>Feedback</dt>
              <dd className="text-break" data-testid="version-feedback">
                {selected.feedback}
              </dd>
            </>
          )}
        </dl>
      )}
    </div>
  );
}
