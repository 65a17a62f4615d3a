import { useState } from 'react';
import Card from 'react-bootstrap/Card';
import Collapse from 'react-bootstrap/Collapse';

import { type PipelineFilter, useEnabledCode } from '@/features/pipeline/api/get-enabled-filters';
import { firstError } from '@/lib/api-client';

/** One enabled filter; its read-only Python source is loaded the first time the card is opened. */
export function PipelineFilterCard({ filter }: { filter: PipelineFilter }) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const code = useEnabledCode(filter.filterId, opened);
  const bodyId = `pipeline-filter-${filter.id.replace(/\W/g, '_')}`;
  return (
    <Card className="mb-2">
      <Card.Header>
        <button
          type="button"
          className="btn btn-link p-0 text-reset text-decoration-none fw-semibold"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => {
            setOpen(!open);
            setOpened(true);
          }}
        >
          {filter.name}
        </button>
        {filter.description && <div className="small text-body-secondary">{filter.description}</div>}
      </Card.Header>
      <Collapse in={open}>
        <div id={bodyId}>
          <Card.Body>
            {filter.filterId === null ? (
              <p className="mb-0 text-body-secondary">The source of this filter is not public.</p>
            ) : code.isPending ? (
              <p className="mb-0">Loading...</p>
            ) : code.isError ? (
              <p className="mb-0 text-danger">The source of this filter could not be loaded: {firstError(code.error).detail}</p>
            ) : (
              <pre className="mb-0 small bg-body-tertiary p-2 rounded" aria-label={`Python source of ${filter.name}`}>
                <code>{code.data}</code>
              </pre>
            )}
          </Card.Body>
        </div>
      </Collapse>
    </Card>
  );
}
