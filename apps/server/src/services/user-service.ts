import { firstError, MESSAGES, rules } from '@antares/contract';
import type { Repositories, UserRow } from '@antares/db';
import { SYSTEM_USERNAME } from '@antares/pipeline';

import type { Identity } from '../auth/authenticator.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { RegistrationLimiter } from '../auth/registration-limiter.ts';
import { hasInvisibleCharacters, normalizeUsername, usernameSkeleton } from '../auth/usernames.ts';
import { ApiError, badRequest, conflict, notFound, tooManyRequests } from '../errors.ts';
import { policies } from '../policies/index.ts';
import { booleanField, stringField } from './body.ts';

/**
 * Usernames nobody may register: the system account that owns the shipped filters (created at start-up;
 * a real account by that name would keep them from being installed, or take them over).
 */
export const RESERVED_USERNAMES: readonly string[] = [SYSTEM_USERNAME];

/** What a registration over HTTP adds to one by an operator (the CLI): a throttle and a new account's mail. */
export interface RegistrationOptions {
  /** Rations registrations per client address and overall (ADR 0061). */
  limiter?: RegistrationLimiter;
  /** Called with each new account: sends the verification mail when verification is required. */
  onRegistered?: (user: UserRow) => void;
  /** New accounts start unverified (the HTTP registration with verification required); else verified. */
  unverified?: boolean;
}

/** Registration and account administration. */
export class UserService {
  constructor(
    private readonly repos: Repositories,
    private readonly options: RegistrationOptions = {},
  ) {}

  /** Registers a user (`address`: the client's, for the throttle; none for an operator's registration). */
  async register(
    attributes: Record<string, unknown>,
    flags: { admin?: boolean; staff?: boolean } = {},
    address?: string,
  ): Promise<UserRow> {
    const limiter = address === undefined ? undefined : this.options.limiter;
    const wait = limiter?.attempt(address ?? '') ?? 0;
    if (wait > 0) throw tooManyRequests(`Too many registrations; try again in ${wait} second${wait === 1 ? '' : 's'}`, wait);
    try {
      const user = await this.create(attributes, flags);
      this.options.onRegistered?.(user);
      return user;
    } catch (error) {
      // A refused field is refused before any password is hashed: it costs the address nothing. A taken
      // name costs a registration (its password was hashed), so refusals cannot buy unbounded hashing.
      if (address !== undefined && error instanceof ApiError && error.status === 400) limiter?.refund(address);
      throw error;
    }
  }

  private async create(attributes: Record<string, unknown>, flags: { admin?: boolean; staff?: boolean }): Promise<UserRow> {
    const name = stringField(attributes, 'name') ?? '';
    // Stored as NFKC: "ｖｒｕｂｉｎ" is "vrubin" (auth/usernames.ts).
    const username = normalizeUsername(stringField(attributes, 'username') ?? '');
    const email = stringField(attributes, 'email') ?? '';
    const password = stringField(attributes, 'password') ?? '';
    const problems = [
      ['name', firstError(name, rules.required)],
      ['username', hasInvisibleCharacters(username) ? MESSAGES.invalidCharacters : firstError(username, rules.username)],
      ['email', firstError(email, rules.email)],
      ['password', firstError(password, rules.password)],
    ].filter(([, message]) => message !== null);
    if (problems.length > 0) throw badRequest(problems.map(([field, message]) => `${field}: ${message}`).join(' '));
    const skeleton = usernameSkeleton(username);
    if (RESERVED_USERNAMES.some((reserved) => usernameSkeleton(reserved) === skeleton)) throw conflict(MESSAGES.usernameTaken);
    const outcome = await this.repos.users.createUnlessConfusable(
      {
        username,
        email: email.trim(),
        name: name.trim(),
        password_hash: await hashPassword(password),
        username_skeleton: skeleton,
        email_verified_at: this.options.unverified ? null : undefined,
        ...flags,
      },
      usernameSkeleton,
    );
    if ('created' in outcome) return outcome.created;
    throw conflict(outcome.conflict === 'taken' ? MESSAGES.usernameTaken : MESSAGES.usernameConfusable);
  }

  list(options: { sort: string | undefined; limit: number; offset: number }) {
    return this.repos.users.list({ ...options, sort: options.sort || 'username' });
  }

  /** An account, to that user or an admin. */
  async readable(identity: Identity, userId: number): Promise<UserRow> {
    policies.assertSelfOrAdmin(identity, userId, 'the account');
    return this.get(userId);
  }

  async get(userId: number): Promise<UserRow> {
    const user = await this.repos.users.findById(userId);
    if (!user) throw notFound(`No user with id ${userId}`);
    return user;
  }

  /** Grants or withdraws admin and staff (`admin` and/or `staff` in the attributes, true or false). */
  async updateFlags(userId: number, attributes: Record<string, unknown>): Promise<UserRow> {
    const flags = { admin: booleanField(attributes, 'admin'), staff: booleanField(attributes, 'staff') };
    const changes = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
    if (Object.keys(changes).length === 0) throw badRequest('Give admin and/or staff (true or false) to change');
    return this.setFlags(userId, changes);
  }

  async setFlags(userId: number, flags: { admin?: boolean; staff?: boolean }): Promise<UserRow> {
    const user = await this.repos.users.update(userId, flags);
    if (!user) throw notFound(`No user with id ${userId}`);
    return user;
  }
}
