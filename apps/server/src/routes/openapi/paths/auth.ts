/** `/v1/auth/*`: the session calls (routes/auth, services/auth-service.ts). Plain JSON, not JSON:API. */
import { fail, op, type Paths, plainBody, plainJson, ref, tokenTypeParam } from '../shared.ts';

const tags = ['Sessions'];
const identity = (description: string) => ({
  ...plainJson(description, ref('Identity')),
  headers: {
    'Set-Cookie': {
      description: 'access_token_cookie, refresh_token_cookie (HttpOnly) and csrf_access_token, csrf_refresh_token (readable)',
      schema: { type: 'string' },
    },
  },
});
const CSRF_403 = 'A cookie session without the right X-CSRF-TOKEN header';

const login = (fresh: boolean) =>
  op('post', 'public', {
    tags,
    operationId: fresh ? 'login_fresh' : 'login',
    summary: fresh ? 'Log in with a fresh access token (needed to change the password)' : 'Log in',
    description: 'Sets the session cookies (wire format section 7). Failed logins are limited per username and per address.',
    parameters: [tokenTypeParam],
    requestBody: plainBody(ref('Credentials'), 'The credentials, as plain JSON (a JSON:API document with them as attributes is read too).'),
    responses: {
      200: identity('The user; with `?type=token`, also access_token and refresh_token'),
      ...fail({ 400: 'username and password: Field is required.', 401: 'Incorrect username or password' }),
      429: {
        description: 'Too many failed logins; try again after Retry-After seconds',
        headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
        content: { 'application/json': { schema: ref('Errors') } },
      },
    },
  });

export const authPaths: Paths = {
  '/v1/auth/check': {
    get: op('get', 'login', {
      tags,
      operationId: 'check',
      summary: 'Who is logged in',
      responses: { 200: plainJson('The logged-in user', ref('Identity')) },
    }),
  },
  '/v1/auth/login': { post: login(false) },
  '/v1/auth/login-fresh': { post: login(true) },
  '/v1/auth/refresh': {
    post: op('post', 'login', {
      tags,
      operationId: 'refresh',
      summary: 'A new access token for a refresh token',
      description:
        'The refresh token comes from its cookie (with the csrf_refresh_token value in X-CSRF-TOKEN) or, for scripts, as `Authorization: Bearer <refresh_token>`.',
      parameters: [tokenTypeParam],
      security: [{ refreshCookie: [], csrfToken: [] }, { bearerAuth: [] }],
      responses: {
        200: identity('The user; with `?type=token`, also the new access_token (cookie sessions get a new access cookie)'),
        ...fail({ 401: 'No refresh token, or it is expired, revoked or invalid', 403: CSRF_403 }),
      },
    }),
  },
  '/v1/auth/logout': {
    post: op('post', 'login', {
      tags,
      operationId: 'logout',
      summary: 'Log out: revoke the session tokens and clear the cookies',
      description:
        'Revokes the access and refresh tokens the request carries (cookies, or a bearer token). Cookie sessions send the CSRF value of either token.',
      security: [{ cookieAuth: [], csrfToken: [] }, { refreshCookie: [], csrfToken: [] }, { bearerAuth: [] }],
      responses: {
        200: plainJson('Logged out', { type: 'object', properties: { logout: { const: true } } }),
        ...fail({ 401: 'Not logged in (no valid token)', 403: CSRF_403 }),
      },
    }),
  },
  '/v1/auth/forgot': {
    post: op('post', 'public', {
      tags,
      operationId: 'forgot',
      summary: 'Mail a password-reset link',
      description:
        'Answers alike whether the user exists or not; the link (valid for a limited time, single use) carries a reset token for POST /v1/auth/reset.',
      requestBody: plainBody({ type: 'object', required: ['username'], properties: { username: { type: 'string' } } }),
      responses: {
        202: plainJson('Accepted: a link is mailed if the user exists', { type: 'object', properties: { message: { type: 'string' } } }),
        ...fail({ 400: 'username: Field is required.' }),
      },
    }),
  },
  '/v1/auth/reset': {
    post: op('post', 'login', {
      tags,
      operationId: 'reset',
      summary: 'Set a new password',
      description:
        "Authorised by the mailed reset token (`Authorization: Bearer`, single use) or by a fresh cookie session (POST /v1/auth/login-fresh) with its CSRF header. Ends the account's other sessions; this one gets new cookies.",
      security: [{ bearerAuth: [] }, { cookieAuth: [], csrfToken: [] }],
      requestBody: plainBody({
        type: 'object',
        required: ['password'],
        properties: {
          password: { type: 'string', format: 'password', minLength: 8, maxLength: 256, description: 'With a digit and a capital letter' },
        },
      }),
      responses: {
        200: identity('The user, with new session cookies'),
        ...fail({
          400: 'password: not acceptable (the rules of registration)',
          401: 'Not logged in; the session is not fresh; or the reset link is expired, invalid or already used',
          403: CSRF_403,
        }),
      },
    }),
  },
};
