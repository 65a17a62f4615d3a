import { useCallback, useEffect, useRef } from 'react';
import { type BlockerFunction, useBlocker } from 'react-router';

export const UNSAVED_CHANGES_MESSAGE = 'You have unsaved changes, do you really want to leave?';

/**
 * Asks before leaving a form with unsaved edits: in-app navigation to another page gets the spec's
 * confirmation, closing or reloading the tab gets the browser's own prompt. Returns a function that
 * lets the next navigation through without asking (after a successful submit).
 */
export function useUnsavedChangesPrompt(dirty: boolean): () => void {
  const dirtyRef = useRef(dirty);
  const bypassRef = useRef(false);
  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => dirtyRef.current && !bypassRef.current && currentLocation.pathname !== nextLocation.pathname,
    [],
  );
  const blocker = useBlocker(shouldBlock);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(UNSAVED_CHANGES_MESSAGE)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (bypassRef.current) return;
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  return useCallback(() => {
    bypassRef.current = true;
  }, []);
}
