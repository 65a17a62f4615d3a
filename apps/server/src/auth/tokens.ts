import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

import type { Config } from '../config.ts';

export type TokenType = 'access' | 'refresh' | 'reset' | 'verify';

export interface TokenClaims {
  sub: string;
  jti: string;
  type: TokenType;
  /** The CSRF double-submit value that must come back in X-CSRF-TOKEN (cookie sessions). */
  csrf: string;
  /** Issued by a password check just now (login-fresh): required to change a password. */
  fresh: boolean;
  /** A fingerprint of the password hash at issue: a password change or reset ends every older token. */
  pwd: string;
  /**
   * The session: the access and refresh tokens of one login (and the access tokens refreshed from it) share
   * it, so a logout with any one of them ends them all. Empty for reset links and for tokens issued before
   * sessions had ids.
   */
  sid: string;
  exp: number;
}

/** The user ids tokens carry as sub: a positive integer that fits a bigint (and a JavaScript number exactly). */
const USER_ID = /^[1-9][0-9]{0,14}$/;

/** Whom a token is for: the user id and their current password hash (see TokenClaims.pwd). */
export interface TokenSubject {
  user_id: number;
  password_hash: string;
}

export function passwordFingerprint(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('base64url').slice(0, 16);
}

/** The revoked_token entry that ends a whole session (kept apart from token ids by its prefix). */
export function sessionRevocationId(sid: string): string {
  return `session:${sid}`;
}

/** Why a token was refused; 'expired' is told apart because the web app refreshes on it. */
export class TokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'Token has expired' : 'Token is invalid');
  }
}

export class TokenService {
  private readonly key: Uint8Array;

  constructor(private readonly config: Config) {
    this.key = new TextEncoder().encode(config.jwtSecret ?? persistedSecret(config.dataDir));
  }

  lifetimeSeconds(type: TokenType): number {
    if (type === 'access') return this.config.accessTokenMinutes * 60;
    if (type === 'refresh') return this.config.refreshTokenDays * 86400;
    if (type === 'reset') return this.config.resetTokenMinutes * 60;
    // An e-mail verification link: long enough for the mail to arrive and be read the next day.
    return 2 * 86400;
  }

  async issue(
    type: TokenType,
    subject: TokenSubject,
    options: { fresh?: boolean; sid?: string } = {},
  ): Promise<{ token: string; claims: TokenClaims }> {
    const claims: TokenClaims = {
      sub: String(subject.user_id),
      jti: randomUUID(),
      type,
      csrf: randomUUID(),
      fresh: options.fresh ?? false,
      pwd: passwordFingerprint(subject.password_hash),
      sid: options.sid ?? '',
      exp: Math.floor(Date.now() / 1000) + this.lifetimeSeconds(type),
    };
    const session = claims.sid ? { sid: claims.sid } : {};
    const token = await new SignJWT({ type: claims.type, csrf: claims.csrf, fresh: claims.fresh, pwd: claims.pwd, ...session })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setJti(claims.jti)
      .setIssuedAt()
      .setExpirationTime(claims.exp)
      .sign(this.key);
    return { token, claims };
  }

  async verify(token: string, type: TokenType): Promise<TokenClaims> {
    try {
      // A token without exp would never expire: refused even when its signature is ours (requiredClaims).
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['exp', 'sub', 'jti'] });
      // sub is a user id (a positive integer): anything else is invalid, never a database look-up of NaN.
      if (payload.type !== type || typeof payload.sub !== 'string' || !USER_ID.test(payload.sub) || typeof payload.jti !== 'string') {
        throw new TokenError('invalid');
      }
      return {
        sub: payload.sub,
        jti: payload.jti,
        type,
        csrf: String(payload.csrf ?? ''),
        fresh: payload.fresh === true,
        pwd: String(payload.pwd ?? ''),
        sid: typeof payload.sid === 'string' ? payload.sid : '',
        exp: payload.exp as number,
      };
    } catch (error) {
      if (error instanceof TokenError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw new TokenError('expired');
      throw new TokenError('invalid');
    }
  }
}

/** A random secret kept in the data folder, so sessions survive restarts without configuration. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
