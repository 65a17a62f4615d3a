/**
 * `/v1/auth/*`: the session calls (wire format section 7), plain JSON rather than JSON:API. Login, refresh,
 * logout and reset carry their own credentials (a password, a refresh or reset token) that the service
 * checks (`credentials: true`), so the route reads no session before them.
 */
import Type from 'typebox';

import { LIMITS } from '../validation.ts';
import { endpoint } from './define.ts';

const tags = ['Sessions'];
const CSRF_403 = 'A cookie session without the right X-CSRF-TOKEN header';
const SET_COOKIE = {
  'Set-Cookie': 'access_token_cookie, refresh_token_cookie (HttpOnly) and csrf_access_token, csrf_refresh_token (readable)',
};

/** What the session calls answer: the user id and the user; with `?type=token`, the tokens too. */
export const SessionIdentity = Type.Object({
  identity: Type.String({ description: 'The user id' }),
  user: Type.Object({
    id: Type.String(),
    username: Type.String(),
    name: Type.String(),
    email: Type.Optional(Type.String()),
    admin: Type.Optional(Type.Boolean()),
    staff: Type.Optional(Type.Boolean()),
    created_at: Type.Optional(Type.String({ format: 'date-time' })),
  }),
  access_token: Type.Optional(Type.String({ description: 'Only with `?type=token`: for `Authorization: Bearer` (15 minutes)' })),
  refresh_token: Type.Optional(
    Type.String({
      description:
        'Only with `?type=token` on login and refresh: for POST /v1/auth/refresh (single use: a refresh returns its successor, and a spent one presented again ends the session) and /v1/auth/logout',
    }),
  ),
});

const tokenType = Type.Object({
  type: Type.Optional(
    Type.String({
      description:
        'With `token`, the tokens are also returned in the body (for scripts using `Authorization: Bearer`); any other value (the web app sends `cookie`) only sets the cookies.',
    }),
  ),
});

const Credentials = Type.Object({ username: Type.String(), password: Type.String({ format: 'password' }) });

export const checkSession = endpoint({
  method: 'GET',
  path: '/v1/auth/check',
  operationId: 'check',
  access: 'login',
  tags,
  summary: 'Who is logged in',
  response: { status: 200, description: 'The logged-in user', schema: SessionIdentity },
});

const login = (fresh: boolean) =>
  endpoint({
    method: 'POST',
    path: fresh ? '/v1/auth/login-fresh' : '/v1/auth/login',
    operationId: fresh ? 'login_fresh' : 'login',
    access: 'public',
    credentials: true,
    tags,
    summary: fresh ? 'Log in with a fresh access token (needed to change the password)' : 'Log in',
    description: 'Sets the session cookies (wire format section 7). Failed logins are limited per username and per address.',
    query: tokenType,
    body: {
      kind: 'plain',
      schema: Credentials,
      description: 'The credentials, as plain JSON (a JSON:API document with them as attributes is read too).',
    },
    response: {
      status: 200,
      description: 'The user; with `?type=token`, also access_token and refresh_token',
      schema: SessionIdentity,
      headers: SET_COOKIE,
    },
    errors: {
      400: 'username and password: Field is required.',
      401: 'Incorrect username or password',
      429: 'Too many failed logins; try again after Retry-After seconds',
    },
    errorHeaders: { 429: { 'Retry-After': 'Seconds to wait' } },
  });

export const logIn = login(false);
export const logInFresh = login(true);

export const refresh = endpoint({
  method: 'POST',
  path: '/v1/auth/refresh',
  operationId: 'refresh',
  access: 'login',
  credentials: true,
  tags,
  summary: 'A new access token for a refresh token',
  description:
    'The refresh token comes from its cookie (with the csrf_refresh_token value in X-CSRF-TOKEN) or, for scripts, as `Authorization: Bearer <refresh_token>`.',
  query: tokenType,
  security: [{ refreshCookie: [], csrfToken: [] }, { bearerAuth: [] }],
  response: {
    status: 200,
    description:
      'The user; with `?type=token`, also the new access_token and refresh_token (cookie sessions get new access and refresh cookies). The refresh token presented is spent.',
    schema: SessionIdentity,
    headers: SET_COOKIE,
  },
  errors: { 401: 'No refresh token, or it is expired, revoked, invalid or already used (which ends its session)', 403: CSRF_403 },
});

export const logOut = endpoint({
  method: 'POST',
  path: '/v1/auth/logout',
  operationId: 'logout',
  access: 'login',
  credentials: true,
  tags,
  summary: 'Log out: revoke the session tokens and clear the cookies',
  description:
    'Revokes the access and refresh tokens the request carries (cookies, or a bearer token). Cookie sessions send the CSRF value of either token.',
  security: [{ cookieAuth: [], csrfToken: [] }, { refreshCookie: [], csrfToken: [] }, { bearerAuth: [] }],
  response: { status: 200, description: 'Logged out', schema: Type.Object({ logout: Type.Literal(true) }) },
  errors: { 401: 'Not logged in (no valid token)', 403: CSRF_403 },
});

export const forgot = endpoint({
  method: 'POST',
  path: '/v1/auth/forgot',
  operationId: 'forgot',
  access: 'public',
  tags,
  summary: 'Mail a password-reset link',
  description:
    'Answers alike whether the user exists or not; the link (valid for a limited time, single use) carries a reset token for POST /v1/auth/reset.',
  body: { kind: 'plain', schema: Type.Object({ username: Type.String() }) },
  response: {
    status: 202,
    description: 'Accepted: a link is mailed if the user exists',
    schema: Type.Object({ message: Type.String() }),
  },
  errors: { 400: 'username: Field is required.' },
});

export const resetPassword = endpoint({
  method: 'POST',
  path: '/v1/auth/reset',
  operationId: 'reset',
  access: 'login',
  credentials: true,
  tags,
  summary: 'Set a new password',
  description:
    "Authorised by the mailed reset token (`Authorization: Bearer`, single use) or by a fresh cookie session (POST /v1/auth/login-fresh) with its CSRF header. Ends the account's other sessions; this one gets new cookies.",
  security: [{ bearerAuth: [] }, { cookieAuth: [], csrfToken: [] }],
  body: {
    kind: 'plain',
    schema: Type.Object({
      password: Type.String({
        format: 'password',
        minLength: LIMITS.passwordMin,
        maxLength: LIMITS.passwordMax,
        description: 'With a digit and a capital letter',
      }),
    }),
  },
  response: { status: 200, description: 'The user, with new session cookies', schema: SessionIdentity, headers: SET_COOKIE },
  errors: {
    400: 'password: not acceptable (the rules of registration)',
    401: 'Not logged in; the session is not fresh; or the reset link is expired, invalid or already used',
    403: CSRF_403,
  },
});

export const verifyEmail = endpoint({
  method: 'GET',
  path: '/v1/auth/verify-email',
  operationId: 'verify_email',
  access: 'public',
  credentials: true,
  tags,
  summary: "Confirm an account's e-mail address",
  description:
    'The link of the mail sent at registration (when the server requires a confirmed address for dry runs and backtests: ADR 0061). Following it again changes nothing.',
  query: Type.Object({ token: Type.String({ description: 'The verification token of the mailed link' }) }),
  response: { status: 200, description: 'Confirmed', schema: Type.Object({ message: Type.String() }) },
  errors: { 400: 'token: Field is required.', 401: 'The link is expired or invalid, or its account no longer exists' },
});
