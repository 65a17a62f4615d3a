import { randomUUID } from 'node:crypto';

import { firstError, rules } from '@antares/contract';
import type { Repositories, UserRow } from '@antares/db';

import {
  type Authenticator,
  csrfError,
  type Identity,
  type IssuedSession,
  type PresentedTokens,
  refreshReused,
} from '../auth/authenticator.ts';
import type { LoginLimiter } from '../auth/login-limiter.ts';
import type { Mailer } from '../auth/mailer.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import type { ResetMailQueue } from '../auth/reset-mails.ts';
import { sessionRevocationId, type TokenClaims, type TokenService } from '../auth/tokens.ts';
import { normalizeUsername } from '../auth/usernames.ts';
import { badRequest, tooManyRequests, unauthorized } from '../errors.ts';

/**
 * Login, refresh, logout and password reset: the rules behind /v1/auth. It reads the tokens a request
 * presents (PresentedTokens) and returns the tokens it issues; setting and clearing cookies is the route's.
 */
export class AuthService {
  constructor(
    private readonly repos: Repositories,
    private readonly auth: Authenticator,
    private readonly tokens: TokenService,
    private readonly limiter: LoginLimiter,
    private readonly mailer: Mailer,
    private readonly resetMails: ResetMailQueue,
  ) {}

  /** A new session for the right password from `address` (the client's IP), unless that pair or address is throttled. */
  async login(credentials: { username?: string; password?: string }, address: string, fresh: boolean): Promise<IssuedSession> {
    // Usernames are stored in NFKC form (auth/usernames.ts): "ｖｒｕｂｉｎ" logs in as "vrubin".
    const username = normalizeUsername(credentials.username ?? '');
    const password = credentials.password ?? '';
    if (username.trim() === '' || password === '') throw badRequest('username and password: Field is required.');
    // Throttled per (username, address) and per address, never per username alone: nobody can lock the
    // owner out from elsewhere (auth/login-limiter.ts).
    const wait = this.limiter.attempt(username, address);
    if (wait > 0) throw tooManyRequests(`Too many failed logins; try again in ${wait} second${wait === 1 ? '' : 's'}`, wait);
    const user = await this.repos.users.findByUsername(username);
    // The same answer, and a hash computed either way, whether the user exists or not.
    const ok = user ? await verifyPassword(user.password_hash, password) : (await hashPassword(password), false);
    if (!user || !ok) throw unauthorized('Incorrect username or password');
    this.limiter.succeeded(username, address);
    return this.auth.issueSession(user, { fresh });
  }

  /**
   * A new access token and a new refresh token for the refresh token of the cookie (with the refresh CSRF
   * value in X-CSRF-TOKEN) or of an `Authorization: Bearer` header (scripts, `?type=token`).
   * `fromCookie`: the route sets them as the cookies.
   *
   * Refresh tokens are single use (ADR 0061): each refresh spends the token presented and issues its
   * successor in the same session. A spent token presented again means that two parties hold it (a stolen
   * copy, or the owner after the thief refreshed): the whole session ends, so the thief's tokens stop
   * working too and the owner logs in again.
   */
  async refresh(presented: PresentedTokens): Promise<{ user: UserRow; session: IssuedSession; fromCookie: boolean }> {
    const { bearer } = presented;
    const token = bearer ?? presented.refreshCookie;
    if (!token) throw unauthorized('No refresh token');
    const claims = await this.auth.verify(token, 'refresh', { spentEndsSession: true });
    if (!bearer && presented.csrfHeader !== claims.csrf) throw csrfError();
    const user = await this.auth.userOf(claims);
    if (!(await this.repos.revokedTokens.revokeOnce(claims.jti, new Date(claims.exp * 1000)))) {
      // A concurrent refresh with the same token won the race: a reuse all the same.
      await this.auth.endSession(claims);
      throw refreshReused();
    }
    // Tokens issued before sessions had ids get one now, so that their successors can be ended together.
    const sid = claims.sid || randomUUID();
    const access = await this.tokens.issue('access', user, { sid });
    const refresh = await this.tokens.issue('refresh', user, { sid });
    return { user, session: { access, refresh }, fromCookie: !bearer };
  }

  /**
   * Revokes the session the request's tokens belong to (cookies, or a bearer token of a script): the tokens
   * themselves and their session id, so the access and refresh tokens issued together (and access tokens
   * refreshed since) all stop working, whichever of them was presented. 401 when
   * it carries none that is valid ('no-session': the route answers 401 after clearing the cookies), 403 when
   * cookie tokens come without the CSRF value of one of them (the web app sends the refresh one), so that
   * another site cannot log a user out.
   */
  async logout(presented: PresentedTokens): Promise<'revoked' | 'no-session'> {
    const { bearer } = presented;
    const candidates: Array<[string | undefined, 'access' | 'refresh']> = bearer
      ? [
          [bearer, 'access'],
          [bearer, 'refresh'],
        ]
      : [
          [presented.accessCookie, 'access'],
          [presented.refreshCookie, 'refresh'],
        ];
    const valid: TokenClaims[] = [];
    for (const [token, type] of candidates) {
      if (!token) continue;
      try {
        valid.push(await this.tokens.verify(token, type));
      } catch {
        // An expired or forged token needs no revoking.
      }
    }
    if (valid.length === 0) return 'no-session';
    if (!bearer && !valid.some((claims) => claims.csrf === presented.csrfHeader)) throw csrfError();
    const sessionEnd = this.auth.sessionEnd();
    for (const claims of valid) {
      await this.repos.revokedTokens.revoke(claims.jti, new Date(claims.exp * 1000));
      if (claims.sid) await this.repos.revokedTokens.revoke(sessionRevocationId(claims.sid), sessionEnd);
    }
    return 'revoked';
  }

  /**
   * Queues a password-reset request; the caller has already answered (alike for every username, and as
   * quickly). The job mails a single-use reset link when the user exists, can log in (not the system account
   * that owns the shipped filters) and has not had its hourly allowance of reset mails; it is logged, never
   * surfaced, when it fails. `linkBase` comes from configuration, never from the request (auth/mail-links.ts).
   */
  forgot(username: string, linkBase: string): void {
    this.resetMails.enqueue(() => this.mailResetLink(username, linkBase));
  }

  private async mailResetLink(username: string, linkBase: string): Promise<void> {
    const user = await this.repos.users.findByUsername(username);
    if (!user || !isLoginAccount(user)) return;
    if (!this.resetMails.allowMail(user.user_id)) return;
    const { token } = await this.tokens.issue('reset', user);
    const link = `${linkBase}/forgot-password?token=${encodeURIComponent(token)}`;
    await this.mailer.send({
      to: user.email,
      subject: 'ANTARES password reset',
      text:
        `Hello ${user.name},\n\nSomeone (hopefully you) asked to reset the password of the ANTARES account "${user.username}".\n` +
        `Open this link within ${this.tokens.lifetimeSeconds('reset') / 60} minutes to choose a new password:\n\n${link}\n\n` +
        'If you did not ask for this, ignore this message: your password stays as it is.\n',
    });
  }

  /**
   * Sets a new password, authorised either by a reset token (Authorization: Bearer, single use) or by a
   * fresh cookie session (password change in the settings page), and starts a new session with it.
   */
  async reset(
    password: string,
    authority: { resetToken: string } | { caller: () => Promise<Identity> },
  ): Promise<{ user: UserRow; session: IssuedSession }> {
    const problem = firstError(password, rules.password);
    if (problem) throw badRequest(`password: ${problem}`);
    let user: UserRow;
    if ('resetToken' in authority) {
      const claims = await this.auth.verify(authority.resetToken, 'reset');
      user = await this.auth.userOf(claims);
      if (!(await this.repos.revokedTokens.revokeOnce(claims.jti, new Date(claims.exp * 1000)))) {
        throw unauthorized('This reset link has already been used');
      }
      // The link came by mail: its holder reads the account's mailbox, which is all verification asks (ADR 0061).
      if (user.email_verified_at === null) user = (await this.repos.users.markEmailVerified(user.user_id)) ?? user;
    } else {
      const identity = await authority.caller();
      if (!identity.claims.fresh) throw unauthorized('Changing the password needs a fresh login');
      user = identity.user;
    }
    const updated = (await this.repos.users.update(user.user_id, { password_hash: await hashPassword(password) })) ?? user;
    // Every other session of the account ends with the old password (see TokenClaims.pwd); this one goes on.
    return { user: updated, session: await this.auth.issueSession(updated) };
  }
}

/** Real accounts have an argon2 hash ('$argon2id$...'); the system account has none and never logs in. */
export function isLoginAccount(user: UserRow): boolean {
  return user.password_hash.startsWith('$');
}
