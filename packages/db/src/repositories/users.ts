import { type Kysely, type Selectable, sql } from 'kysely';

import type { AppUserTable, Database } from '../schema.ts';
import { compileListSort } from '../search/list-filter.ts';

/** Every query here reads whole rows (`selectAll`, `RETURNING *`). */
export type UserRow = Selectable<AppUserTable>;

const USER_SORT = {
  id: 'user_id',
  username: 'username',
  email: 'email',
  name: 'name',
  created_at: 'created_at',
  admin: 'admin',
  staff: 'staff',
};

export class UserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findById(userId: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('app_user').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async findByUsername(username: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('app_user')
      .selectAll()
      .where(sql`lower(username)`, '=', username.toLowerCase())
      .executeTakeFirst();
  }

  /** Creates a user; undefined when the username is taken (case-insensitively). */
  async create(user: {
    username: string;
    email: string;
    name: string;
    password_hash: string;
    admin?: boolean;
    staff?: boolean;
  }): Promise<UserRow | undefined> {
    const result = await sql<UserRow>`INSERT INTO app_user (username, email, name, password_hash, admin, staff)
      VALUES (${user.username}, ${user.email}, ${user.name}, ${user.password_hash}, ${user.admin ?? false}, ${user.staff ?? false})
      ON CONFLICT ((lower(username))) DO NOTHING
      RETURNING *`.execute(this.db);
    return result.rows[0];
  }

  async list(options: { sort: string; limit: number; offset: number }): Promise<{ rows: UserRow[]; count: number }> {
    const rows = await this.db
      .selectFrom('app_user')
      .selectAll()
      .orderBy(compileListSort(options.sort, USER_SORT))
      .orderBy('user_id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    const count = await this.db
      .selectFrom('app_user')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return { rows, count: Number(count.n) };
  }

  async update(
    userId: number,
    changes: Partial<Pick<UserRow, 'admin' | 'staff' | 'password_hash' | 'name' | 'email'>>,
  ): Promise<UserRow | undefined> {
    if (Object.keys(changes).length === 0) return this.findById(userId);
    return this.db
      .updateTable('app_user')
      .set({ ...changes, updated_at: new Date() })
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }
}

export class RevokedTokenRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async revoke(jti: string, expiresAt: Date): Promise<void> {
    await this.db
      .insertInto('revoked_token')
      .values({ jti, expires_at: expiresAt })
      .onConflict((oc) => oc.column('jti').doNothing())
      .execute();
  }

  /** Revokes a token id unless it already was: true for the first use of a single-use token. */
  async revokeOnce(jti: string, expiresAt: Date): Promise<boolean> {
    const result = await this.db
      .insertInto('revoked_token')
      .values({ jti, expires_at: expiresAt })
      .onConflict((oc) => oc.column('jti').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async isRevoked(jti: string): Promise<boolean> {
    const row = await this.db.selectFrom('revoked_token').select('jti').where('jti', '=', jti).executeTakeFirst();
    return row !== undefined;
  }

  /** Expired entries can go: their tokens are refused for having expired anyway. */
  async purgeExpired(): Promise<void> {
    await this.db.deleteFrom('revoked_token').where('expires_at', '<', new Date()).execute();
  }
}
