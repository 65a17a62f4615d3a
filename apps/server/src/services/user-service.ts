import { firstError, MESSAGES, rules } from '@antares/contract';
import type { Repositories, UserRow } from '@antares/db';
import { SYSTEM_USERNAME } from '@antares/pipeline';

import { hashPassword } from '../auth/passwords.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { stringField } from './body.ts';

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

  async get(userId: number): Promise<UserRow> {
    const user = await this.repos.users.findById(userId);
    if (!user) throw notFound(`No user with id ${userId}`);
    return user;
  }

  async setFlags(userId: number, flags: { admin?: boolean; staff?: boolean }): Promise<UserRow> {
    const user = await this.repos.users.update(userId, flags);
    if (!user) throw notFound(`No user with id ${userId}`);
    return user;
  }
}
