import { useSyncExternalStore } from 'react';

import { getSession, type SessionState, subscribeSession } from './session';

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
