import { type LoaderFunctionArgs, redirect } from 'react-router';

import { checkSession, getSession, sessionEndedAtStartup } from '@/lib/session';

/** The full path (path + query + hash) of the request, the value carried in `redirect`. */
function fullPath(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}${url.hash}`;
}

export function loginPath(redirectTo: string, reason?: 'inactivity'): string {
  const params = new URLSearchParams();
  if (reason) params.set('reason', reason);
  params.set('redirect', redirectTo);
  return `/login?${params.toString()}`;
}

/** Where a logged-out user is sent: login with the redirect (and the inactivity notice when the session just ended). */
function toLogin(request: Request): Response {
  return redirect(loginPath(fullPath(request), sessionEndedAtStartup() ? 'inactivity' : undefined));
}

/**
 * Session-check routes let logged-out users through but verify a logged-in user's session; a failed
 * check sends the user to login with reason inactivity plus the redirect.
 */
export async function sessionCheck({ request }: LoaderFunctionArgs) {
  if (!getSession().isAuthenticated) {
    if (sessionEndedAtStartup()) throw toLogin(request);
    return null;
  }
  if (await checkSession()) return null;
  throw redirect(loginPath(fullPath(request), 'inactivity'));
}

/** Login-required routes send a logged-out user to login with the full path as the redirect. */
export async function loginRequired({ request }: LoaderFunctionArgs) {
  if (!getSession().isAuthenticated) throw toLogin(request);
  return null;
}

/** Admin routes: logged-out users go to login, logged-in non-admins go home. */
export async function adminOnly({ request }: LoaderFunctionArgs) {
  const session = getSession();
  if (!session.isAuthenticated) throw toLogin(request);
  if (!session.user?.admin) throw redirect('/');
  return null;
}
