import { firstError, MESSAGES, rules } from '@antares/contract';
import type { Repositories, UserRow } from '@antares/db';
import { SYSTEM_USERNAME } from '@antares/pipeline';

import type { Identity } from '../auth/authenticator.ts';
import { hashPassword } from '../auth/passwords.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { policies } from '../policies/index.ts';
import { booleanField, stringField } from './body.ts';

/**
 * Usernames nobody may register: the system account that owns the shipped filters (created at start-up;
 * a real account by that name would keep them from being installed, or take them over).
 */
export const RESERVED_USERNAMES: readonly string[] = [SYSTEM_USERNAME];

/** Registration and account administration. */
export class UserService {
  constructor(private readonly repos: Repositories) {}

  async register(attributes: Record<string, unknown>, flags: { admin?: boolean; staff?: boolean } = {}): Promise<UserRow> {
    const name = stringField(attributes, 'name') ?? '';
    const username = stringField(attributes, 'username') ?? '';
    const email = stringField(attributes, 'email') ?? '';
    const password = stringField(attributes, 'password') ?? '';
    const problems = [
      ['name', firstError(name, rules.required)],
      ['username', firstError(username, rules.username)],
      ['email', firstError(email, rules.email)],
      ['password', firstError(password, rules.password)],
    ].filter(([, message]) => message !== null);
    if (problems.length > 0) throw badRequest(problems.map(([field, message]) => `${field}: ${message}`).join(' '));
    if (RESERVED_USERNAMES.includes(username.trim().toLowerCase())) throw new ApiError(409, 'Conflict', MESSAGES.usernameTaken);
    const user = await this.repos.users.create({
      username: username.trim(),
      email: email.trim(),
      name: name.trim(),
      password_hash: await hashPassword(password),
      ...flags,
    });
    if (!user) throw new ApiError(409, 'Conflict', MESSAGES.usernameTaken);
    return user;
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
