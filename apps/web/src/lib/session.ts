import type { checkSession as checkSessionEndpoint, ResponseOf } from '@antares/contract/endpoints';

import { ApiError, apiFetch, onSessionEnded } from './api-client';
import { queryClient } from './query-client';
import { readStored, writeStored } from './storage';

/**
 * The persisted client session (authentication flag and user), stored in localStorage under a
 * versioned key (store version 0.1.0) so a future shape change can discard old data safely. The
 * session itself lives in HttpOnly cookies; this is what the app believes about it, verified against
 * the server at start-up and by the session-check guard.
 */
/** The user of the session calls' answer (the contract's), as kept: a session stored by an older version may lack the name. */
export type SessionUser = Omit<ResponseOf<typeof checkSessionEndpoint>['user'], 'name'> & { name?: string };

export interface SessionState {
  version: '0.1.0';
  isAuthenticated: boolean;
  user: SessionUser | null;
}

export const SESSION_STORAGE_KEY = 'antares.session';
const EMPTY: SessionState = { version: '0.1.0', isAuthenticated: false, user: null };

/** Query keys of everything that belongs to the signed-in user (dropped on logout). */
export const USER_DATA_KEY = 'user-data';

function isSession(value: unknown): value is SessionState {
  if (typeof value !== 'object' || value === null) return false;
  const session = value as SessionState;
  if (session.version !== '0.1.0' || typeof session.isAuthenticated !== 'boolean') return false;
  // An authenticated session without a usable user is not usable either.
  return !session.isAuthenticated || (typeof session.user === 'object' && session.user !== null && typeof session.user.id === 'string');
}

let state: SessionState = readStored(SESSION_STORAGE_KEY, isSession) ?? EMPTY;
const listeners = new Set<() => void>();

export function getSession(): SessionState {
  return state;
}

function publish(next: SessionState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

export function setSession(next: SessionState): void {
  writeStored(SESSION_STORAGE_KEY, next);
  publish(next);
}

export function signIn(user: SessionUser): void {
  setSession({ version: '0.1.0', isAuthenticated: true, user });
}

/** Clears auth, user and user data (logout, a failed session check, a refused refresh). */
export function clearSession(): void {
  setSession(EMPTY);
  queryClient.removeQueries({ queryKey: [USER_DATA_KEY] });
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// A refused refresh (401) means the session is over.
onSessionEnded(clearSession);

// Another tab logging in or out changes what this tab should show.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== SESSION_STORAGE_KEY) return;
    const next = readStored(SESSION_STORAGE_KEY, isSession) ?? EMPTY;
    if (!next.isAuthenticated) queryClient.removeQueries({ queryKey: [USER_DATA_KEY] });
    publish(next);
  });
}

type IdentityBody = Partial<ResponseOf<typeof checkSessionEndpoint>>;

/** The user of an auth call's answer ({identity, user}). */
export function userOfIdentity(body: IdentityBody): SessionUser | null {
  if (body.identity === undefined || !body.user) return null;
  return { ...body.user, id: String(body.user.id ?? body.identity) };
}

/**
 * Verifies a session that appears valid (GET /auth/check; an expired access token is refreshed once
 * on the way). A refusal (401/403) logs the user out and returns false; the user's flags are updated
 * otherwise. A server that cannot be reached proves nothing, so the session is kept.
 */
export async function checkSession(): Promise<boolean> {
  if (!state.isAuthenticated) return false;
  try {
    const response = await apiFetch('/auth/check');
    const user = userOfIdentity((await response.json().catch(() => ({}))) as IdentityBody);
    if (user && state.isAuthenticated) signIn(user);
    return true;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      clearSession();
      return false;
    }
    return true;
  }
}

/**
 * Set when the start-up verification finds that a session which looked valid has ended on the server
 * (expired or revoked while the tab was closed): the first page's guard then sends the user to login
 * with the inactivity notice, as if the session had ended while browsing.
 */
let endedAtStartup = false;

export function markSessionEndedAtStartup(value: boolean): void {
  endedAtStartup = value;
}

export function sessionEndedAtStartup(): boolean {
  return endedAtStartup;
}

/** POST /auth/logout with the refresh anti-forgery header (a 401 is tolerated), then a reload. */
export async function logout(): Promise<void> {
  try {
    await apiFetch('/auth/logout', { method: 'POST', params: { type: 'cookie' }, csrf: 'refresh' });
  } catch {
    // already logged out on the server (expired or revoked): the local session goes either way
  }
  clearSession();
  window.location.reload();
}
