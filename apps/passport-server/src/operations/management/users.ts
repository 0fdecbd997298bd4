import {
  CreateUserBody,
  DeleteUserQuery,
  FactorsReset,
  LinkedAccountList,
  LinkedAccountParams,
  ListUsersQuery,
  ManagedUser,
  ResetFactorsBody,
  SessionList,
  SessionsRevoked,
  UpdateUserBody,
  UserDeleted,
  UserIdParams,
  UserPage,
  UserState,
} from '@portico/management/protocol';
import { type Kysely, sql } from 'kysely';
import { Type } from 'typebox';
import type { Database, User } from '../../db/schema';
import { newUserRow } from '../../domain/accounts/accounts';
import { emailOf, mobileOf } from '../../domain/accounts/targets';
import {
  cancelCheck,
  eraseAccount,
  lockedAccount,
  startCoolingOff,
} from '../../domain/cancellation/cancellation';
import { removeRecoveryCodes } from '../../domain/factors/recovery-codes';
import { removeTotp } from '../../domain/factors/totp';
import { usernameOf } from '../../domain/identifiers/usernames';
import { identitiesOf, unlink } from '../../domain/oauth/identities';
import { revokeOpenAuthOf } from '../../domain/open-auth/cancellation';
import { normaliseDescription, normaliseName } from '../../domain/profile/names';
import { PassportError } from '../../errors';
import type { EventData, EventType } from '../../events/catalogue';
import { caller, defineOperation } from '../define';
import { actorOf, type ManagementContext } from './caller';
import { afterCursor, pageOf } from './cursor';

/**
 * The management API's user calls, for a product's back end holding an API key (`users:read`,
 * `users:write`). Identifiers come in full: the key is the product's own server, not a person.
 */

type KeyContext = ManagementContext;

const managed = (user: User): ManagedUser => ({
  id: user.id,
  mobile: user.mobile,
  email: user.email,
  username: user.username,
  name: user.screen_name,
  frozen: user.is_frozen === 1,
  has_password: user.password_hash !== null,
  created_at: user.created_at,
});

async function existing(tx: Kysely<Database>, id: string): Promise<User> {
  const user = await tx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!user || user.erased_at !== null) throw new PassportError('accountNotFound');
  return user;
}

function emitAbout<T extends EventType>(ctx: KeyContext, userId: string, type: T, data: EventData<T>) {
  ctx.emit({
    type,
    stream: `user:${userId}`,
    actor: actorOf(ctx.caller),
    targetUserId: userId,
    data,
  });
}

/** LIKE's own wildcards in a query are literal characters. */
const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const listUsers = defineOperation({
  name: 'management.users.list',
  input: ListUsersQuery,
  output: UserPage,
  caller: caller.apiKey('users:read'),
  emits: [],
  async run(ctx, input) {
    const limit = input.limit ?? 20;
    let query = ctx.tx.selectFrom('users').selectAll().where('erased_at', 'is', null);
    if (input.query) {
      const text = input.query.trim().toLowerCase();
      const prefix = likePrefix(text);
      query = query.where((eb) =>
        eb.or([
          eb('id', '=', input.query as string),
          // The backslash escapes LIKE's wildcards on both dialects (SQLite has no default escape).
          ...(['mobile', 'email', 'username'] as const).map(
            (column) => sql<boolean>`${sql.ref(column)} like ${prefix} escape '\\'`,
          ),
        ]),
      );
    }
    if (input.cursor) query = query.where(afterCursor(input.cursor));
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    const { page, next } = pageOf(rows, limit);
    return { users: page.map(managed), next_cursor: next };
  },
});

/**
 * A read of one person's data leaves a trail in their stream (`account.viewed`): the person's activity
 * and the audit log show which key looked, and when. A list leaves none per account (a page of a
 * search is not a look at anyone); the key's last use and the server's request log keep it.
 */
function viewed(ctx: KeyContext, userId: string, call: string) {
  emitAbout(ctx, userId, 'account.viewed', { call });
}

export const getUser = defineOperation({
  name: 'management.users.get',
  input: UserIdParams,
  output: ManagedUser,
  caller: caller.apiKey('users:read'),
  emits: ['account.viewed'],
  async run(ctx, input) {
    const user = await existing(ctx.tx, input.id);
    viewed(ctx, user.id, 'getUser');
    return managed(user);
  },
});

/** What a write call answers: the state it changed, never the account's identifiers. */
const stateOf = (user: User, frozen: boolean): UserState => ({ id: user.id, frozen });

/**
 * An account a key may change: not an operator's. A leaked `users:write` key must not lock out the
 * people who can revoke it.
 */
async function changeable(ctx: KeyContext, id: string): Promise<User> {
  const user = await existing(ctx.tx, id);
  if (ctx.config.operators.includes(user.id))
    throw new PassportError('insufficientScope', { reason: 'operator' });
  return user;
}

export const freezeUser = defineOperation({
  name: 'management.users.freeze',
  input: UserIdParams,
  output: UserState,
  caller: caller.apiKey('users:write'),
  emits: ['account.frozen', 'account.sessions_revoked', 'account.app_revoked'],
  async run(ctx, input) {
    const user = await changeable(ctx, input.id);
    if (user.is_frozen === 1) return stateOf(user, true);
    await ctx.tx
      .updateTable('users')
      .set({ is_frozen: 1, updated_at: ctx.now() })
      .where('id', '=', user.id)
      .execute();
    const ended = await ctx.tx.deleteFrom('sessions').where('user_id', '=', user.id).executeTakeFirst();
    // Its apps lose their tokens too (the provider also finds no frozen account).
    const apps = await revokeOpenAuthOf(ctx.tx as never, user.id);
    emitAbout(ctx, user.id, 'account.frozen', {});
    emitAbout(ctx, user.id, 'account.sessions_revoked', { count: Number(ended.numDeletedRows) });
    for (const { clientId, appName } of apps)
      emitAbout(ctx, user.id, 'account.app_revoked', { clientId, appName, reason: 'frozen' });
    return stateOf(user, true);
  },
});

export const unfreezeUser = defineOperation({
  name: 'management.users.unfreeze',
  input: UserIdParams,
  output: UserState,
  caller: caller.apiKey('users:write'),
  emits: ['account.unfrozen'],
  async run(ctx, input) {
    const user = await existing(ctx.tx, input.id);
    if (user.is_frozen === 0) return stateOf(user, false);
    await ctx.tx
      .updateTable('users')
      .set({ is_frozen: 0, updated_at: ctx.now() })
      .where('id', '=', user.id)
      .execute();
    emitAbout(ctx, user.id, 'account.unfrozen', {});
    return stateOf(user, false);
  },
});

export const revokeUserSessions = defineOperation({
  name: 'management.users.sessions.revoke',
  input: UserIdParams,
  output: SessionsRevoked,
  caller: caller.apiKey('users:write'),
  emits: ['account.sessions_revoked'],
  async run(ctx, input) {
    const user = await changeable(ctx, input.id);
    const ended = await ctx.tx.deleteFrom('sessions').where('user_id', '=', user.id).executeTakeFirst();
    const count = Number(ended.numDeletedRows);
    emitAbout(ctx, user.id, 'account.sessions_revoked', { count });
    return { revoked: count };
  },
});

const isUniqueViolation = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};

/**
 * An account made by the product's back end: its mobile and e-mail normalised and checked as a sign-up
 * would, a username by the usernames' rules. It needs a mobile or an e-mail (a way in: a code to it);
 * the person sets a password later. No waitlist: the back end admits whom it creates.
 */
export const createUser = defineOperation({
  name: 'management.users.create',
  input: CreateUserBody,
  output: ManagedUser,
  caller: caller.apiKey('users:write'),
  emits: ['account.created'],
  async run(ctx, input) {
    const mobile = input.mobile !== undefined ? mobileOf(ctx, input.mobile) : null;
    const email = input.email !== undefined ? emailOf(input.email) : null;
    if (mobile === null && email === null)
      throw new PassportError('invalidParam', { reason: 'mobile or email' });
    const username = input.username !== undefined ? usernameOf(input.username) : null;
    const name = input.name !== undefined ? normaliseName(input.name) : undefined;
    const taken = await ctx.tx
      .selectFrom('users')
      .select('id')
      .where((eb) =>
        eb.or([
          ...(mobile ? [eb('mobile', '=', mobile)] : []),
          ...(email ? [eb('email', '=', email)] : []),
          ...(username ? [eb('username', '=', username)] : []),
        ]),
      )
      .executeTakeFirst();
    if (taken) throw new PassportError('identifierTaken');
    const now = ctx.now();
    const row = {
      ...newUserRow(now, { mobile, email, ...(name ? { screen_name: name } : {}) }),
      username,
      ...(name ? { name_set_at: now } : {}),
    };
    try {
      await ctx.tx.insertInto('users').values(row).execute();
    } catch (error) {
      // A concurrent create of the same identifier won between the check and the insert.
      if (isUniqueViolation(error)) throw new PassportError('identifierTaken');
      throw error;
    }
    const identifiers = (['mobile', 'email', 'username'] as const).filter((key) => row[key] !== null);
    emitAbout(ctx, row.id, 'account.created', { identifiers: [...identifiers] });
    return managed(row);
  },
});

/** Changes the name, the username or the description; what changed is the event (never the values). */
export const updateUser = defineOperation({
  name: 'management.users.update',
  input: Type.Object({ ...UserIdParams.properties, ...UpdateUserBody.properties }),
  output: ManagedUser,
  caller: caller.apiKey('users:write'),
  emits: ['account.profile_updated'],
  async run(ctx, input) {
    const user = await existing(ctx.tx, input.id);
    const changes: Partial<User> = {};
    if (input.name !== undefined) changes.screen_name = normaliseName(input.name);
    if (input.description !== undefined) changes.description = normaliseDescription(input.description);
    if (input.username !== undefined) {
      const username = usernameOf(input.username);
      const holder = await ctx.tx
        .selectFrom('users')
        .select('id')
        .where('username', '=', username)
        .where('id', '!=', user.id)
        .executeTakeFirst();
      if (holder) throw new PassportError('usernameTaken');
      changes.username = username;
    }
    const fields = Object.keys(changes).filter(
      (key) => changes[key as keyof User] !== user[key as keyof User],
    ) as (keyof User)[];
    if (fields.length === 0) return managed(user);
    const now = ctx.now();
    try {
      await ctx.tx
        .updateTable('users')
        .set({ ...changes, updated_at: now, ...(changes.screen_name ? { name_set_at: now } : {}) })
        .where('id', '=', user.id)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new PassportError('usernameTaken');
      throw error;
    }
    const wire = { screen_name: 'name', username: 'username', description: 'description' } as const;
    emitAbout(ctx, user.id, 'account.profile_updated', {
      fields: fields.map((field) => wire[field as keyof typeof wire]),
    });
    return managed({ ...user, ...changes });
  },
});

/**
 * Deletes an account by the cancellation's rules (docs/cancellation.md): its blockers refuse it
 * (CANCEL_BLOCKED: a frozen account, an operator, the sole manager of an organisation), and by default
 * it starts the cooling-off period the person would (every session ends; the person may sign in and
 * abandon). `erase: 'now'` erases it in this transaction, as the erasure run would at the period's end.
 */
export const deleteUser = defineOperation({
  name: 'management.users.delete',
  input: Type.Object({ ...UserIdParams.properties, ...DeleteUserQuery.properties }),
  output: UserDeleted,
  caller: caller.apiKey('users:write'),
  emits: ['account.cancellation_requested', 'account.cancellation_completed'],
  async run(ctx, input) {
    await existing(ctx.tx, input.id);
    const user = await lockedAccount(ctx.tx, input.id);
    if (!user) throw new PassportError('accountNotFound');
    const scope = { db: ctx.tx, now: ctx.now(), config: ctx.config };
    const check = await cancelCheck(ctx.cancellation, scope, user);
    if (check.blockers.length > 0)
      throw new PassportError('cancelBlocked', { blockers: check.blockers.map((b) => b.key) });
    const now = ctx.now();
    if (input.erase !== 'now') {
      if (user.cancel_erase_at !== null)
        return { id: user.id, state: 'pending' as const, erase_at: Number(user.cancel_erase_at) };
      const eraseAt = await startCoolingOff(ctx.tx, user.id, now, ctx.config.cancelCoolingOffDays);
      await revokeOpenAuthOf(ctx.tx as never, user.id);
      emitAbout(ctx, user.id, 'account.cancellation_requested', { eraseAt });
      return { id: user.id, state: 'pending' as const, erase_at: eraseAt };
    }
    await revokeOpenAuthOf(ctx.tx as never, user.id);
    await eraseAccount(ctx.tx, ctx.cancellation, user.id, user, now);
    emitAbout(ctx, user.id, 'account.cancellation_completed', {});
    return { id: user.id, state: 'erased' as const, erase_at: null };
  },
});

/** A session's handle on the wire: the start of its token's SHA-256 (nothing a cookie can be made from). */
const sessionHandle = (tokenHash: string) => tokenHash.slice(0, 16);

export const listUserSessions = defineOperation({
  name: 'management.users.sessions.list',
  input: UserIdParams,
  output: SessionList,
  caller: caller.apiKey('users:read'),
  emits: ['account.viewed'],
  async run(ctx, input) {
    const user = await existing(ctx.tx, input.id);
    const rows = await ctx.tx
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('expires_at', '>', ctx.now())
      .orderBy('last_seen_at', 'desc')
      .execute();
    viewed(ctx, user.id, 'listUserSessions');
    return {
      sessions: rows.map((row) => ({
        id: sessionHandle(row.token_hash),
        created_at: Number(row.created_at),
        last_seen_at: Number(row.last_seen_at),
        expires_at: Number(row.expires_at),
        ip: row.ip,
        user_agent: row.user_agent,
      })),
    };
  },
});

export const listLinkedAccounts = defineOperation({
  name: 'management.users.linked_accounts.list',
  input: UserIdParams,
  output: LinkedAccountList,
  caller: caller.apiKey('users:read'),
  emits: ['account.viewed'],
  async run(ctx, input) {
    const user = await existing(ctx.tx, input.id);
    const rows = await identitiesOf({ db: ctx.tx }, user.id);
    viewed(ctx, user.id, 'listLinkedAccounts');
    return {
      linked_accounts: rows.map((row) => ({
        provider: row.provider,
        email: row.email,
        name: row.name,
        linked_at: Number(row.created_at),
        last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
      })),
    };
  },
});

/** A way into the account besides its linked identities and passkeys: a code to its mobile or e-mail, a password. */
const hasOwnWayIn = (user: User) =>
  Boolean(user.mobile || user.email || (user.username && user.password_hash));

/**
 * Unlinks a provider. Never the last way in (OAUTH_LAST_WAY_IN): the back end would lock the person out.
 */
export const unlinkAccount = defineOperation({
  name: 'management.users.linked_accounts.unlink',
  input: LinkedAccountParams,
  output: LinkedAccountList,
  caller: caller.apiKey('users:write'),
  emits: ['account.third_party_unlinked'],
  async run(ctx, input) {
    const user = await changeable(ctx, input.id);
    const rows = await identitiesOf({ db: ctx.tx }, user.id);
    const row = rows.find((r) => r.provider === input.provider);
    if (!row) throw new PassportError('oauthNotBound');
    const others = rows.length > 1;
    const passkey = await ctx.tx
      .selectFrom('passkeys')
      .select('id')
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!hasOwnWayIn(user) && !others && !passkey) throw new PassportError('oauthLastWayIn');
    await unlink({ db: ctx.tx }, user.id, row.provider);
    emitAbout(ctx, user.id, 'account.third_party_unlinked', { provider: row.provider });
    return {
      linked_accounts: rows
        .filter((r) => r !== row)
        .map((r) => ({
          provider: r.provider,
          email: r.email,
          name: r.name,
          linked_at: Number(r.created_at),
          last_used_at: r.last_used_at === null ? null : Number(r.last_used_at),
        })),
    };
  },
});

/**
 * Resets the person's factors when they lost a device: the authenticator app, the recovery codes, the
 * passkeys (all three unless named). Passkeys go only when the account keeps a way in without them
 * (PASSKEY_LAST_WAY_IN). Never an operator's (a leaked key must not weaken who can revoke it).
 */
export const resetFactors = defineOperation({
  name: 'management.users.factors.reset',
  input: Type.Object({ ...UserIdParams.properties, ...ResetFactorsBody.properties }),
  output: FactorsReset,
  caller: caller.apiKey('users:write'),
  emits: ['account.factor_removed', 'passkey.removed'],
  async run(ctx, input) {
    const user = await changeable(ctx, input.id);
    const kinds = new Set(input.factors ?? ['totp', 'recovery_codes', 'passkeys']);
    const answer = { totp: false, recovery_codes: 0, passkeys: 0 };
    if (kinds.has('passkeys')) {
      const passkeys = await ctx.tx
        .selectFrom('passkeys')
        .select(['id', 'name'])
        .where('user_id', '=', user.id)
        .execute();
      if (passkeys.length > 0) {
        const linked = await identitiesOf({ db: ctx.tx }, user.id);
        if (!hasOwnWayIn(user) && linked.length === 0) throw new PassportError('passkeyLastWayIn');
        await ctx.tx.deleteFrom('passkeys').where('user_id', '=', user.id).execute();
        for (const passkey of passkeys)
          emitAbout(ctx, user.id, 'passkey.removed', { passkeyId: passkey.id, name: passkey.name });
        answer.passkeys = passkeys.length;
      }
    }
    if (kinds.has('totp') && (await removeTotp(ctx.tx, user.id))) {
      answer.totp = true;
      emitAbout(ctx, user.id, 'account.factor_removed', { method: 'totp' });
    }
    if (kinds.has('recovery_codes')) {
      const left = await ctx.tx
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('user_id', '=', user.id)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      await removeRecoveryCodes(ctx.tx, user.id);
      answer.recovery_codes = Number(left.count);
      if (answer.recovery_codes > 0)
        emitAbout(ctx, user.id, 'account.factor_removed', { method: 'recovery_codes' });
    }
    return answer;
  },
});
