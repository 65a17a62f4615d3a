import { lazy, Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';

import { CodeIcon } from '@/components/Icons';

import type { ScriptQuery } from './python-script';

const ApiAccessDialog = lazy(() => import('./ApiAccessDialog'));

/** 'API Access' button and its 'ANTARES API' modal: the script view of the current query. */
export function ApiAccessModal({ query }: { query: ScriptQuery }) {
  const [show, setShow] = useState(false);
  // Mounted from the first opening on, so that closing keeps the modal's own fade-out.
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="outline-secondary"
        size="sm"
        onClick={() => {
          setOpened(true);
          setShow(true);
        }}
      >
        <CodeIcon /> API Access
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <ApiAccessDialog query={query} show={show} onHide={() => setShow(false)} />
        </Suspense>
      )}
    </>
  );
}
