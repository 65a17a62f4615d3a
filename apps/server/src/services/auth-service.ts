import type { FastifyReply, FastifyRequest } from 'fastify';
import { firstError, rules } from '@antares/contract';
import type { Repositories, UserRow } from '@antares/db';
import { ApiError, badRequest } from '../errors.ts';
import { COOKIES, type Authenticator } from '../auth/authenticator.ts';
import type { LoginLimiter } from '../auth/login-limiter.ts';
import type { Mailer } from '../auth/mailer.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import type { TokenService } from '../auth/tokens.ts';

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
    return this.auth.startSession(request, reply, user.user_id, { fresh });
  }

  async refresh(request: FastifyRequest, reply: FastifyReply) {
    const token = request.cookies[COOKIES.refresh];
    if (!token) throw new ApiError(401, 'Unauthorized', 'No refresh token');
    const claims = await this.auth.verify(token, 'refresh');
    if (request.headers['x-csrf-token'] !== claims.csrf) {
      throw new ApiError(403, 'Forbidden', 'Missing or incorrect CSRF token (X-CSRF-TOKEN header)');
    }
    const user = await this.auth.userOf(claims);
    await this.auth.refreshAccess(request, reply, user.user_id);
    return user;
  }

  /** Revokes whatever session tokens the request carries; 401 when it carries none that is valid. */
  async logout(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    let revoked = 0;
    for (const [cookie, type] of [[COOKIES.access, 'access'], [COOKIES.refresh, 'refresh']] as const) {
      const token = request.cookies[cookie];
      if (!token) continue;
      try {
        const claims = await this.tokens.verify(token, type);
        await this.repos.revokedTokens.revoke(claims.jti, new Date(claims.exp * 1000));
        revoked++;
      } catch {
        // An expired or forged token needs no revoking.
      }
    }
    this.auth.clearSession(reply);
    if (revoked === 0) throw new ApiError(401, 'Unauthorized', 'Not logged in');
  }

  /** Mails a single-use reset link when the user exists; the answer is the same either way. */
  async forgot(username: string, frontendUrl: string): Promise<void> {
    const user = await this.repos.users.findByUsername(username);
    if (!user) return;
    const { token } = await this.tokens.issue('reset', user.user_id);
    const link = `${frontendUrl}forgot-password?token=${encodeURIComponent(token)}`;
    await this.mailer.send({
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
    const header = request.headers.authorization;
    let user: UserRow;
    if (header?.startsWith('Bearer ')) {
      const claims = await this.auth.verify(header.slice(7).trim(), 'reset');
      user = await this.auth.userOf(claims);
      if (!(await this.repos.revokedTokens.revokeOnce(claims.jti, new Date(claims.exp * 1000)))) {
        throw new ApiError(401, 'Unauthorized', 'This reset link has already been used');
      }
    } else {
      const identity = await this.auth.require(request, 'reset');
      if (!identity.claims.fresh) throw new ApiError(401, 'Unauthorized', 'Changing the password needs a fresh login');
      user = identity.user;
    }
    const updated = await this.repos.users.update(user.user_id, { password_hash: await hashPassword(password) });
    await this.auth.startSession(request, reply, user.user_id);
    return updated ?? user;
  }
}
