import {
  ListUsersQuery,
  ManagedUser,
  SessionsRevoked,
  UserIdParams,
  UserPage,
  UserState,
} from '@portico/management/protocol';
import { type Kysely, sql } from 'kysely';
import type { Database, User } from '../../db/schema';
import { revokeOpenAuthOf } from '../../domain/open-auth/cancellation';
import { PassportError } from '../../errors';
import type { EventData, EventType } from '../../events/catalogue';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';

/**
 * The management API's user calls, for a product's back end holding an API key (`users:read`,
 * `users:write`). Identifiers come in full: the key is the product's own server, not a person.
 */

type KeyContext = OperationContext<CallerOf<{ kind: 'apiKey'; scope: string }>>;

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
    actor: { kind: 'apiKey', keyId: ctx.caller.keyId },
    targetUserId: userId,
    data,
  });
}

/** A page's position: the last row's creation time and id (newest first), opaque to the client. */
const encodeCursor = (user: User) =>
  Buffer.from(JSON.stringify([user.created_at, user.id])).toString('base64url');
function decodeCursor(cursor: string): [number, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    // A time in ms and an id as the server wrote them: anything else (1.5, 1e21) is not a cursor.
    if (
      Array.isArray(value) &&
      Number.isSafeInteger(value[0]) &&
      typeof value[1] === 'string' &&
      value[1].length <= 64
    )
      return [value[0] as number, value[1]];
  } catch {}
  throw new PassportError('invalidParam', { reason: 'cursor' });
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
    if (input.cursor) {
      const [createdAt, id] = decodeCursor(input.cursor);
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', createdAt),
          eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { users: page.map(managed), next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
  },
});

export const getUser = defineOperation({
  name: 'management.users.get',
  input: UserIdParams,
  output: ManagedUser,
  caller: caller.apiKey('users:read'),
  emits: [],
  async run(ctx, input) {
    return managed(await existing(ctx.tx, input.id));
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
