import { type ReactNode, useId, useState } from 'react';
import Card from 'react-bootstrap/Card';
import Collapse from 'react-bootstrap/Collapse';

/** A collapsible card section; children mount on first open so closed sections cost nothing. */
export function SectionCard({
  title,
  defaultOpen = true,
  children,
  actions,
}: {
  title: string;
  defaultOpen?: boolean;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const [everOpened, setEverOpened] = useState(defaultOpen);
  const bodyId = useId();
  const toggle = () => {
    setOpen((value) => !value);
    setEverOpened(true);
  };
  return (
    <Card className="mb-4 card-section">
      <Card.Header className="d-flex align-items-center justify-content-between">
        <h2 className="h5 mb-0">
          <button
            type="button"
            className="btn btn-link p-0 text-reset text-decoration-none fw-semibold"
            aria-expanded={open}
            aria-controls={bodyId}
            onClick={toggle}
          >
            <span
              aria-hidden="true"
              className="me-2 d-inline-block"
              style={{ transform: open ? 'rotate(90deg)' : undefined, transition: 'transform 0.15s' }}
            >
              ▸
            </span>
            {title}
          </button>
        </h2>
        {actions}
      </Card.Header>
      <Collapse in={open}>
        <div id={bodyId}>
          <Card.Body>{everOpened ? children : null}</Card.Body>
        </div>
      </Collapse>
    </Card>
  );
}
