import type { BodyOf, createUser, logIn, ResponseOf } from '@antares/contract/endpoints';

import { prefetchAnnotations } from '@/lib/annotations';
import { ApiError, apiFetch, apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';
import { clearSession, type SessionUser, signIn } from '@/lib/session';

/** What a login answers (read defensively: a body without `identity` is an error). */
type IdentityBody = Partial<ResponseOf<typeof logIn>>;

async function identityOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => ({}))) as IdentityBody;
  if (body.identity === undefined || body.identity === null) {
    throw new ApiError(500, [{ status: '500', title: 'Server error.', detail: 'The login response had no identity.' }]);
  }
  return String(body.identity);
}

/** POST /auth/login?type=cookie; the response names the identity (user id) the cookies belong to. */
export async function login(username: string, password: string): Promise<string> {
  const response = await apiFetch('/auth/login', { method: 'POST', params: { type: 'cookie' }, body: { username, password } });
  return identityOf(response);
}

/** POST /auth/login-fresh?type=cookie: a fresh session, needed to change the password. */
export async function loginFresh(username: string, password: string): Promise<string> {
  const response = await apiFetch('/auth/login-fresh', { method: 'POST', params: { type: 'cookie' }, body: { username, password } });
  return identityOf(response);
}

/**
 * After a successful login: marks the session authenticated with the user loaded from GET /users/{id},
 * then loads their annotations. A failed user load clears the half-made session again.
 */
export async function loadUser(identity: string): Promise<SessionUser> {
  try {
    const document = await apiGet<JsonApiDocument<JsonApiResource<Omit<SessionUser, 'id'>>>>(`/users/${encodeURIComponent(identity)}`);
    const user: SessionUser = { ...document.data.attributes, id: String(document.data.id) };
    signIn(user);
    void prefetchAnnotations(user.id);
    return user;
  } catch (error) {
    // The cookies were set: revoke them too, quietly.
    await apiFetch('/auth/logout', { method: 'POST', params: { type: 'cookie' }, csrf: 'refresh' }).catch(() => undefined);
    clearSession();
    throw error;
  }
}

export type Registration = BodyOf<typeof createUser>;

export async function register(registration: Registration): Promise<void> {
  await apiFetch('/users', { method: 'POST', body: { data: { type: 'user', attributes: registration } } });
}

/** POST /auth/forgot: answered 202 whether or not the user exists. */
export async function requestPasswordReset(username: string): Promise<void> {
  await apiFetch('/auth/forgot', { method: 'POST', body: { username } });
}

/** POST /auth/reset?type=cookie with the reset link's token as a bearer (no cookies). */
export async function resetPassword(token: string, password: string): Promise<void> {
  await apiFetch('/auth/reset', { method: 'POST', params: { type: 'cookie' }, body: { password }, bearer: token });
}

/** POST /auth/reset?type=cookie under a fresh cookie session (with the anti-forgery header). */
export async function changePassword(password: string): Promise<void> {
  await apiFetch('/auth/reset', { method: 'POST', params: { type: 'cookie' }, body: { password } });
}
