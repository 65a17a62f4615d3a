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
    username_skeleton?: string;
    /** Unset: confirmed now (accounts made by an operator or at start-up); null: not yet (registration). */
    email_verified_at?: Date | null;
  }): Promise<UserRow | undefined> {
    const verified = user.email_verified_at === undefined ? new Date() : user.email_verified_at;
    const result =
      await sql<UserRow>`INSERT INTO app_user (username, email, name, password_hash, admin, staff, username_skeleton, email_verified_at)
      VALUES (${user.username}, ${user.email}, ${user.name}, ${user.password_hash}, ${user.admin ?? false}, ${user.staff ?? false},
        ${user.username_skeleton ?? null}, ${verified})
      ON CONFLICT ((lower(username))) DO NOTHING
      RETURNING *`.execute(this.db);
    return result.rows[0];
  }

  /**
   * Registration (ADR 0061): creates the user unless its username is taken (case-insensitively) or its
   * skeleton is an existing user's. Registrations take turns (an advisory lock), so two look-alike names
   * sent at once cannot both pass the comparison. Accounts without a skeleton yet (made before migration
   * 0026, by the CLI or at start-up) get theirs from `skeletonOf` first.
   */
  async createUnlessConfusable(
    user: Parameters<UserRepository['create']>[0] & { username_skeleton: string },
    skeletonOf: (username: string) => string,
  ): Promise<{ created: UserRow } | { conflict: 'taken' | 'confusable' }> {
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(7461)`.execute(trx);
      const missing = await trx.selectFrom('app_user').select(['user_id', 'username']).where('username_skeleton', 'is', null).execute();
      for (const row of missing) {
        await trx
          .updateTable('app_user')
          .set({ username_skeleton: skeletonOf(row.username) })
          .where('user_id', '=', row.user_id)
          .execute();
      }
      const taken = await trx
        .selectFrom('app_user')
        .select(['username'])
        .where((eb) =>
          eb.or([eb(sql`lower(username)`, '=', user.username.toLowerCase()), eb('username_skeleton', '=', user.username_skeleton)]),
        )
        .execute();
      if (taken.some((row) => row.username.toLowerCase() === user.username.toLowerCase())) return { conflict: 'taken' as const };
      if (taken.length > 0) return { conflict: 'confusable' as const };
      const created = await new UserRepository(trx).create(user);
      return created ? { created } : { conflict: 'taken' as const };
    });
  }

  /** Marks the e-mail address confirmed (once: a later link changes nothing); the row, or undefined for no such user. */
  async markEmailVerified(userId: number): Promise<UserRow | undefined> {
    await this.db
      .updateTable('app_user')
      .set({ email_verified_at: new Date() })
      .where('user_id', '=', userId)
      .where('email_verified_at', 'is', null)
      .execute();
    return this.findById(userId);
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
