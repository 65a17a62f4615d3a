import { randomUUID } from 'node:crypto';

import { MESSAGES } from '@antares/contract';
import type { Repositories, UserRow } from '@antares/db';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { ApiError, forbidden, unauthorized } from '../errors.ts';
import {
  passwordFingerprint,
  sessionRevocationId,
  type TokenClaims,
  TokenError,
  type TokenService,
  type TokenSubject,
  type TokenType,
} from './tokens.ts';

export interface Identity {
  user: UserRow;
  claims: TokenClaims;
}

export const COOKIES = {
  access: 'access_token_cookie',
  refresh: 'refresh_token_cookie',
  csrfAccess: 'csrf_access_token',
  csrfRefresh: 'csrf_refresh_token',
} as const;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The token of an `Authorization: Bearer` header (scripts, reset links), if any. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

/** The tokens a session call presents (logout, refresh, reset): what AuthService reads instead of the request. */
export interface PresentedTokens {
  /** `Authorization: Bearer` (scripts with `?type=token`, reset links). */
  bearer?: string;
  accessCookie?: string;
  refreshCookie?: string;
  /** X-CSRF-TOKEN, the double-submit value that must come with cookie tokens. */
  csrfHeader?: string;
}

export function presentedTokens(request: FastifyRequest): PresentedTokens {
  const csrf = request.headers['x-csrf-token'];
  return {
    bearer: bearerToken(request),
    accessCookie: request.cookies[COOKIES.access],
    refreshCookie: request.cookies[COOKIES.refresh],
    csrfHeader: typeof csrf === 'string' ? csrf : undefined,
  };
}

/** A login's token pair, to be set as cookies by the route (setSessionCookies) or given to a script. */
export type IssuedSession = Awaited<ReturnType<Authenticator['issueSession']>>;

/** 403 for an unsafe cookie-authenticated call whose X-CSRF-TOKEN is missing or wrong (double submit). */
export function csrfError(): ApiError {
  return forbidden('Missing or incorrect CSRF token (X-CSRF-TOKEN header)');
}

/** 401 for a refresh token used a second time: its session has been ended (ADR 0061). */
export function refreshReused(): ApiError {
  return unauthorized('This refresh token has already been used: the session has ended, please log in again');
}

/**
 * Who is calling: an access token from the Authorization header (scripts) or from the HttpOnly cookie
 * (the web app; then unsafe methods must echo the CSRF value in X-CSRF-TOKEN, the double-submit check).
 * A present but bad token is an error rather than anonymity, so that the web app learns to refresh.
 */
export class Authenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly repos: Repositories,
  ) {}

  async identify(request: FastifyRequest): Promise<Identity | null> {
    const bearer = bearerToken(request);
    const cookie = request.cookies[COOKIES.access];
    const token = bearer ?? cookie;
    if (!token) return null;
    const claims = await this.verify(token, 'access');
    if (!bearer && !SAFE_METHODS.has(request.method) && request.headers['x-csrf-token'] !== claims.csrf) throw csrfError();
    return { user: await this.userOf(claims), claims };
  }

  /** The caller, or 401 'Must be authenticated to call {operation}'. */
  async require(request: FastifyRequest, operation: string): Promise<Identity> {
    const identity = await this.identify(request);
    if (!identity) throw unauthorized(MESSAGES.notAuthenticated(operation));
    return identity;
  }

  async requireAdmin(request: FastifyRequest, operation: string): Promise<Identity> {
    const identity = await this.require(request, operation);
    if (!identity.user.admin) throw forbidden(`Only administrators may call ${operation}`);
    return identity;
  }

  /**
   * The claims of a valid token of `type`. `spentEndsSession`: the token is single use (refresh tokens,
   * ADR 0061), so a spent one presented again ends its whole session rather than only being refused.
   */
  async verify(token: string, type: TokenType, options: { spentEndsSession?: boolean } = {}): Promise<TokenClaims> {
    let claims: TokenClaims;
    try {
      claims = await this.tokens.verify(token, type);
    } catch (error) {
      const reason = error instanceof TokenError ? error.reason : 'invalid';
      throw unauthorized(reason === 'expired' ? 'Token has expired' : 'Token is invalid');
    }
    // The token itself, or the whole session it belongs to (a logout with its twin), may be revoked.
    const [tokenRevoked, sessionRevoked] = await Promise.all([
      this.repos.revokedTokens.isRevoked(claims.jti),
      claims.sid ? this.repos.revokedTokens.isRevoked(sessionRevocationId(claims.sid)) : false,
    ]);
    if (tokenRevoked && !sessionRevoked && options.spentEndsSession) {
      await this.endSession(claims);
      throw refreshReused();
    }
    if (tokenRevoked || sessionRevoked) {
      // Reset tokens are revoked only by being used.
      throw unauthorized(type === 'reset' ? 'This reset link has already been used' : 'Token has been revoked');
    }
    return claims;
  }

  /** Revokes the session of these claims: every token issued in it stops working (a no-op without a session id). */
  async endSession(claims: TokenClaims): Promise<void> {
    if (claims.sid) await this.repos.revokedTokens.revoke(sessionRevocationId(claims.sid), this.sessionEnd());
  }

  /** How long a session revocation must be kept: its refresh token's lifetime plus an access token issued just before it ends. */
  sessionEnd(): Date {
    return new Date(Date.now() + (this.tokens.lifetimeSeconds('refresh') + this.tokens.lifetimeSeconds('access')) * 1000);
  }

  async userOf(claims: TokenClaims): Promise<UserRow> {
    const user = await this.repos.users.findById(Number(claims.sub));
    if (!user) throw unauthorized('The account of this token no longer exists');
    // Issued before the password was last changed or reset: that ended every session (and reset link).
    if (claims.pwd !== passwordFingerprint(user.password_hash)) throw unauthorized('Token is invalid');
    return user;
  }

  /** A new session's access and refresh tokens, sharing one session id: a logout with either ends both. */
  async issueSession(user: TokenSubject, options: { fresh?: boolean } = {}) {
    const sid = randomUUID();
    const access = await this.tokens.issue('access', user, { ...options, sid });
    const refresh = await this.tokens.issue('refresh', user, { sid });
    return { access, refresh };
  }

  /** Sets the session cookies the way flask-jwt-extended does (wire format section 7). */
  setSessionCookies(request: FastifyRequest, reply: FastifyReply, session: IssuedSession): void {
    this.setAccessCookies(request, reply, session.access);
    this.setCookie(request, reply, COOKIES.refresh, session.refresh.token, this.tokens.lifetimeSeconds('refresh'), true);
    this.setCookie(request, reply, COOKIES.csrfRefresh, session.refresh.claims.csrf, this.tokens.lifetimeSeconds('refresh'), false);
  }

  /**
   * The access cookie and its CSRF value. The cookie outlives its token on purpose: the browser keeps sending
   * the expired token, so the server can answer "Token has expired" and the web app knows to refresh (spec
   * section 4).
   */
  setAccessCookies(request: FastifyRequest, reply: FastifyReply, access: IssuedSession['access']): void {
    this.setCookie(request, reply, COOKIES.access, access.token, this.tokens.lifetimeSeconds('refresh'), true);
    this.setCookie(request, reply, COOKIES.csrfAccess, access.claims.csrf, this.tokens.lifetimeSeconds('refresh'), false);
  }

  clearSession(reply: FastifyReply): void {
    for (const name of Object.values(COOKIES)) reply.clearCookie(name, { path: '/' });
  }

  private setCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAge: number, httpOnly: boolean) {
    const https = request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
    reply.setCookie(name, value, { path: '/', httpOnly, sameSite: 'lax', secure: https, maxAge });
  }
}
