import type { FastifyReply, FastifyRequest } from 'fastify';
import { firstError, rules } from '@antares/contract';
import type { Repositories, UserRow } from '@antares/db';
import { ApiError, badRequest } from '../errors.ts';
import { bearerToken, COOKIES, csrfError, type Authenticator } from '../auth/authenticator.ts';
import type { LoginLimiter } from '../auth/login-limiter.ts';
import type { Mailer } from '../auth/mailer.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import type { TokenClaims, TokenService } from '../auth/tokens.ts';

/** Login, refresh, logout and password reset: the rules behind /v1/auth. */
export class AuthService {
  constructor(
    private readonly repos: Repositories,
    private readonly auth: Authenticator,
    private readonly tokens: TokenService,
    private readonly limiter: LoginLimiter,
    private readonly mailer: Mailer,
  ) {}

  async login(request: FastifyRequest, reply: FastifyReply, credentials: { username?: string; password?: string }, fresh: boolean) {
    const username = credentials.username ?? '';
    const password = credentials.password ?? '';
    if (username.trim() === '' || password === '') throw badRequest('username and password: Field is required.');
    const wait = this.limiter.retryAfter(username, request.ip);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw new ApiError(429, 'Too Many Requests', `Too many failed logins; try again in ${wait} seconds`);
    }
    const user = await this.repos.users.findByUsername(username);
    // The same answer, and a hash computed either way, whether the user exists or not.
    const ok = user ? await verifyPassword(user.password_hash, password) : (await hashPassword(password), false);
    if (!user || !ok) {
      this.limiter.recordFailure(username, request.ip);
      throw new ApiError(401, 'Unauthorized', 'Incorrect username or password');
    }
    this.limiter.recordSuccess(username);
    return this.auth.startSession(request, reply, user, { fresh });
  }

  /**
   * A new access token for the refresh token of the cookie (with the refresh CSRF value in X-CSRF-TOKEN)
   * or of an `Authorization: Bearer` header (scripts, `?type=token`).
   */
  async refresh(request: FastifyRequest, reply: FastifyReply): Promise<{ user: UserRow; accessToken: string }> {
    const bearer = bearerToken(request);
    const token = bearer ?? request.cookies[COOKIES.refresh];
    if (!token) throw new ApiError(401, 'Unauthorized', 'No refresh token');
    const claims = await this.auth.verify(token, 'refresh');
    if (!bearer && request.headers['x-csrf-token'] !== claims.csrf) throw csrfError();
    const user = await this.auth.userOf(claims);
    const access = bearer ? await this.tokens.issue('access', user) : await this.auth.refreshAccess(request, reply, user);
    return { user, accessToken: access.token };
  }

  /**
   * Revokes the session tokens the request carries (cookies, or a bearer token of a script): 401 when
   * it carries none that is valid, 403 when cookie tokens come without the CSRF value of one of them
   * (the web app sends the refresh one), so that another site cannot log a user out.
   */
  async logout(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const bearer = bearerToken(request);
    const candidates: Array<[string | undefined, 'access' | 'refresh']> = bearer
      ? [[bearer, 'access'], [bearer, 'refresh']]
      : [[request.cookies[COOKIES.access], 'access'], [request.cookies[COOKIES.refresh], 'refresh']];
    const valid: TokenClaims[] = [];
    for (const [token, type] of candidates) {
      if (!token) continue;
      try {
        valid.push(await this.tokens.verify(token, type));
      } catch {
        // An expired or forged token needs no revoking.
      }
    }
    if (valid.length === 0) {
      this.auth.clearSession(reply);
      throw new ApiError(401, 'Unauthorized', 'Not logged in');
    }
    if (!bearer && !valid.some((claims) => claims.csrf === request.headers['x-csrf-token'])) throw csrfError();
    for (const claims of valid) await this.repos.revokedTokens.revoke(claims.jti, new Date(claims.exp * 1000));
    this.auth.clearSession(reply);
  }

  /**
   * Mails a single-use reset link when the user exists and can log in (not the system account that owns
   * the shipped filters). The caller's answer is the same either way, and as quick: the mail is sent in
   * the background, a failure only logged.
   */
  async forgot(username: string, frontendUrl: string): Promise<void> {
    const user = await this.repos.users.findByUsername(username);
    if (!user || !isLoginAccount(user)) return;
    const { token } = await this.tokens.issue('reset', user);
    const link = `${frontendUrl}forgot-password?token=${encodeURIComponent(token)}`;
    this.mailer.sendInBackground({
      to: user.email,
      subject: 'ANTARES password reset',
      text: `Hello ${user.name},\n\nSomeone (hopefully you) asked to reset the password of the ANTARES account "${user.username}".\n`
        + `Open this link within ${this.tokens.lifetimeSeconds('reset') / 60} minutes to choose a new password:\n\n${link}\n\n`
        + 'If you did not ask for this, ignore this message: your password stays as it is.\n',
    });
  }

  /**
   * Sets a new password, authorised either by a reset token (Authorization: Bearer, single use) or by a
   * fresh cookie session with its CSRF header (password change in the settings page).
   */
  async reset(request: FastifyRequest, reply: FastifyReply, password: string): Promise<UserRow> {
    const problem = firstError(password, rules.password);
    if (problem) throw badRequest(`password: ${problem}`);
    const bearer = bearerToken(request);
    let user: UserRow;
    if (bearer) {
      const claims = await this.auth.verify(bearer, 'reset');
      user = await this.auth.userOf(claims);
      if (!(await this.repos.revokedTokens.revokeOnce(claims.jti, new Date(claims.exp * 1000)))) {
        throw new ApiError(401, 'Unauthorized', 'This reset link has already been used');
      }
    } else {
      const identity = await this.auth.require(request, 'reset');
      if (!identity.claims.fresh) throw new ApiError(401, 'Unauthorized', 'Changing the password needs a fresh login');
      user = identity.user;
    }
    const updated = (await this.repos.users.update(user.user_id, { password_hash: await hashPassword(password) })) ?? user;
    // Every other session of the account ends with the old password (see TokenClaims.pwd); this one goes on.
    await this.auth.startSession(request, reply, updated);
    return updated;
  }
}

/** Real accounts have an argon2 hash ('$argon2id$...'); the system account has none and never logs in. */
export function isLoginAccount(user: UserRow): boolean {
  return user.password_hash.startsWith('$');
}
