import { lazy, Suspense } from 'react';

import type { CodeMirrorEditorProps } from './CodeMirrorEditor';

// CodeMirror is its own chunk, fetched only when a version editor is shown.
const CodeMirrorEditor = lazy(() => import('./CodeMirrorEditor'));

/** The filter code editor; the code shows as plain text until CodeMirror has loaded. */
export function CodeEditor(props: CodeMirrorEditorProps) {
  return (
    <Suspense
      fallback={
        <pre className="code-editor border rounded p-2 mb-0 small" aria-busy="true">
          {props.value}
        </pre>
      }
    >
      <CodeMirrorEditor {...props} />
    </Suspense>
  );
}
