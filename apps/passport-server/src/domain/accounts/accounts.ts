import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, User } from '../../db/schema';

export type Identifier =
  | { kind: 'mobile'; value: string }
  | { kind: 'email'; value: string }
  | { kind: 'username'; value: string };

export interface Accounts {
  find(identifier: Identifier): Promise<User | undefined>;
  /** The account with this mobile or e-mail, created if there is none (sign-in-or-register). */
  findOrCreate(
    identifier: Extract<Identifier, { kind: 'mobile' | 'email' }>,
  ): Promise<{ user: User; created: boolean }>;
  /**
   * Creates an account for a mobile or e-mail (registration), or returns null when one exists already,
   * also when a concurrent registration of the same identifier won the race.
   */
  create(
    identifier: Extract<Identifier, { kind: 'mobile' | 'email' }>,
    passwordHash: string | null,
  ): Promise<User | null>;
  /**
   * Stores a new account's row (made by `newUserRow`) through `db` — a registration operation's
   * transaction — after the guards, which read and write through it too; false when an account has its
   * mobile or e-mail already (also when a concurrent registration won: on PostgreSQL the transaction is
   * then aborted, and the operation answers ACCOUNT_EXISTS).
   */
  insert(user: User, db: Kysely<Database>): Promise<boolean>;
  /** Replaces the password; through `db` when the change is part of a transaction (its event's). */
  setPasswordHash(userId: string, passwordHash: string, db?: Kysely<Database>): Promise<void>;
  /**
   * Run before any new account is created, with its mobile or e-mail (null when it has neither), through
   * `db` (the creation's transaction when it has one): a guard that throws stops the creation (the
   * waitlist, src/domain/waitlist). Areas append theirs.
   */
  readonly guards: ((
    identifier: Extract<Identifier, { kind: 'mobile' | 'email' }> | null,
    db: Kysely<Database>,
  ) => Promise<void>)[];
  /**
   * Sets a first password: false when the account has one already (also when a concurrent set won);
   * through `db` likewise.
   */
  setFirstPasswordHash(userId: string, passwordHash: string, db?: Kysely<Database>): Promise<boolean>;
}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string };
  return (
    e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
};

/**
 * A new account's row: a fresh id, the generated name `user` + 9 digits unless one is given, and the
 * profile and cancellation columns at their starting values. Every way an account is created uses it.
 */
export function newUserRow(
  now: number,
  fields: Partial<Pick<User, 'mobile' | 'email' | 'password_hash' | 'screen_name'>> = {},
): User {
  return {
    id: randomUUID(),
    mobile: null,
    email: null,
    username: null,
    password_hash: null,
    screen_name: `user${String(randomInt(0, 1e9)).padStart(9, '0')}`,
    is_frozen: 0,
    created_at: now,
    updated_at: now,
    description: '',
    birthday: null,
    gender: 0,
    avatar_key: null,
    name_set_at: null,
    cancel_requested_at: null,
    cancel_erase_at: null,
    erased_at: null,
    language: null,
    ...fields,
  };
}

/** The users table: lookups by normalised identifier, creation, password hash updates. */
export function createAccounts(app: FastifyInstance): Accounts {
  const { db, runtime } = app;

  const find = (identifier: Identifier, through = db) =>
    through.selectFrom('users').selectAll().where(identifier.kind, '=', identifier.value).executeTakeFirst();

  const newUser = (
    identifier: Extract<Identifier, { kind: 'mobile' | 'email' }>,
    passwordHash: string | null,
  ): User =>
    newUserRow(runtime.now(), {
      [identifier.kind]: identifier.value,
      password_hash: passwordHash,
    });

  const guards: Accounts['guards'] = [];
  const guard = async (identifier: Extract<Identifier, { kind: 'mobile' | 'email' }>, through = db) => {
    for (const check of guards) await check(identifier, through);
  };

  const accounts: Accounts = {
    find: (identifier) => find(identifier),
    guards,
    async findOrCreate(identifier) {
      const existing = await find(identifier);
      if (existing) return { user: existing, created: false };
      await guard(identifier);
      const user = newUser(identifier, null);
      try {
        await db.insertInto('users').values(user).execute();
        return { user, created: true };
      } catch (error) {
        // Two first sign-ins of one identifier at once: the other one created it.
        if (!isUniqueViolation(error)) throw error;
        const raced = await find(identifier);
        if (!raced) throw error;
        return { user: raced, created: false };
      }
    },
    async create(identifier, passwordHash) {
      if (await find(identifier)) return null;
      await guard(identifier);
      const user = newUser(identifier, passwordHash);
      try {
        await db.insertInto('users').values(user).execute();
        return user;
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },
    async insert(user, through) {
      const identifier = user.mobile
        ? ({ kind: 'mobile', value: user.mobile } as const)
        : user.email
          ? ({ kind: 'email', value: user.email } as const)
          : null;
      if (!identifier) throw new Error('a registered account has a mobile or an e-mail');
      if (await find(identifier, through)) return false;
      await guard(identifier, through);
      try {
        await through.insertInto('users').values(user).execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
    async setFirstPasswordHash(userId, passwordHash, through = db) {
      const result = await through
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: runtime.now() })
        .where('id', '=', userId)
        .where('password_hash', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async setPasswordHash(userId, passwordHash, through = db) {
      await through
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: runtime.now() })
        .where('id', '=', userId)
        .execute();
    },
  };
  return accounts;
}
