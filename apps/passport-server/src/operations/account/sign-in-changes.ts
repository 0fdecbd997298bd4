import { Type } from 'typebox';
import { removeTotp } from '../../domain/factors/totp';
import { hasOtherWayIn, unlink } from '../../domain/oauth/identities';
import type { ProviderName } from '../../domain/oauth/providers';
import { revokeOpenAuthOf } from '../../domain/open-auth/cancellation';
import { keepsAWayInWithout, lockAccount } from '../../domain/passkeys/passkeys';
import { endSessions, forgetDevices } from '../../domain/passwords/stored';
import { PassportError } from '../../errors';
import { caller, defineOperation } from '../define';
import { emitForAccount } from './emit';

/**
 * Recent changes to how the account is signed in to, and "this wasn't me" (docs/security.md, "Recent
 * changes to sign-in methods"). Read from the event outbox, written in the same transaction as each
 * change, so a change is listed the moment it commits (the audit log's copy may trail it).
 */

/** The events that add, replace or remove a way into the account. */
export const SIGN_IN_METHOD_CHANGES = [
  'account.identifier_bound',
  'account.identifier_changed',
  'account.identifier_unbound',
  'account.password_set',
  'account.password_changed',
  'account.password_reset',
  'account.username_set',
  'account.third_party_linked',
  'account.third_party_unlinked',
  'account.factor_added',
  'account.factor_removed',
  'account.recovery_codes_generated',
  'passkey.added',
  'passkey.removed',
] as const;

/** How far back the account centre shows changes: 30 days. */
export const SIGN_IN_CHANGES_WINDOW_MS = 30 * 24 * 3_600_000;
/** At most this many, newest first. */
const SIGN_IN_CHANGES_SHOWN = 20;

const EventId = Type.String({ minLength: 1, maxLength: 64, description: 'the change’s event id' });

export const SignInChange = Type.Object({
  id: EventId,
  type: Type.String({ description: 'the event type, e.g. account.identifier_bound' }),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'the event’s data (identifiers masked)' }),
  ip: Type.Union([Type.String(), Type.Null()], { description: 'the address it came from' }),
  occurred_at: Type.Integer({ description: 'ms since the epoch' }),
  /** The person has already said this change was not them. */
  disowned: Type.Boolean(),
});

const streamOf = (userId: string) => `user:${userId}`;

/** The account's changes to its sign-in methods in the last 30 days, newest first. */
export const listSignInChanges = defineOperation({
  name: 'account.sign_in_change.list',
  input: Type.Object({}),
  output: Type.Object({ changes: Type.Array(SignInChange) }),
  caller: caller.person,
  emits: [],
  async run(ctx) {
    const stream = streamOf(ctx.caller.user.id);
    const since = ctx.now() - SIGN_IN_CHANGES_WINDOW_MS;
    const rows = await ctx.tx
      .selectFrom('events')
      .select(['id', 'type', 'data', 'ip', 'occurred_at'])
      .where('stream', '=', stream)
      .where('type', 'in', [...SIGN_IN_METHOD_CHANGES, 'account.change_disowned'])
      .where('occurred_at', '>=', since)
      .orderBy('position', 'desc')
      .limit(SIGN_IN_CHANGES_SHOWN * 2)
      .execute();
    const disowned = new Set(
      rows
        .filter((row) => row.type === 'account.change_disowned')
        .map((row) => (JSON.parse(row.data) as { eventId?: unknown }).eventId),
    );
    const changes = rows
      .filter((row) => row.type !== 'account.change_disowned')
      .slice(0, SIGN_IN_CHANGES_SHOWN)
      .map((row) => ({
        id: row.id,
        type: row.type,
        data: JSON.parse(row.data) as Record<string, unknown>,
        ip: row.ip,
        occurred_at: Number(row.occurred_at),
        disowned: disowned.has(row.id),
      }));
    return { changes };
  },
});

/**
 * "This wasn't me" on one of those changes: the change is undone when it is still there (a passkey
 * added is deleted, a third-party account linked is unlinked unless it is the account's last way in,
 * an authenticator app added is removed), every app the account authorised loses its grants and tokens,
 * every session of the account ends (this one too: whoever made the change may hold any of them), every
 * remembered device is forgotten (each next sign-in asks for the second verification), and the person
 * is led to secure the account: a password reset by their own mobile or e-mail, then a review of the
 * sign-in methods. No step-up: it only takes ways in away, and a thief who uses it signs himself out too.
 */
export const disownSignInChange = defineOperation({
  name: 'account.sign_in_change.disown',
  input: Type.Object({ event_id: EventId }),
  output: Type.Object({
    sessions_ended: Type.Integer({ description: 'how many sessions ended, this one included' }),
    devices_forgotten: Type.Integer({ description: 'how many remembered devices were forgotten' }),
  }),
  caller: caller.person,
  emits: [
    'account.change_disowned',
    'passkey.removed',
    'account.third_party_unlinked',
    'account.factor_removed',
    'account.app_revoked',
  ],
  async run(ctx, input) {
    const { user } = ctx.caller;
    const change = await ctx.tx
      .selectFrom('events')
      .select(['type', 'data'])
      .where('id', '=', input.event_id)
      .where('stream', '=', streamOf(user.id))
      .where('type', 'in', [...SIGN_IN_METHOD_CHANGES])
      .executeTakeFirst();
    // Another account's event, any other kind of event and none at all answer the same NOT_FOUND.
    if (!change) throw new PassportError('notFound');
    await undoChange(ctx, change.type, JSON.parse(change.data) as Record<string, unknown>);
    for (const { clientId, appName } of await revokeOpenAuthOf(ctx.tx, user.id))
      emitForAccount(ctx, 'account.app_revoked', { clientId, appName, reason: 'revoked' });
    const sessionsEnded = await endSessions(ctx.tx, user.id);
    const devicesForgotten = await forgetDevices(ctx.tx, user.id, null);
    emitForAccount(ctx, 'account.change_disowned', { eventId: input.event_id, changeType: change.type });
    return { sessions_ended: sessionsEnded, devices_forgotten: devicesForgotten };
  },
});

type DisownContext = Parameters<typeof disownSignInChange.run>[0];

/**
 * Undoes a disowned change that added a way in, if it is still there: the passkey it added, the
 * third-party account it linked (never the account's last way in), the authenticator app it added.
 * Each removal emits the event the same removal by the person emits.
 */
async function undoChange(ctx: DisownContext, type: string, data: Record<string, unknown>): Promise<void> {
  const userId = ctx.caller.user.id;
  if (type === 'passkey.added' && typeof data.passkeyId === 'string') {
    await lockAccount(ctx.tx, userId);
    const row = await ctx.tx
      .selectFrom('passkeys')
      .select(['id', 'name'])
      .where('id', '=', data.passkeyId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row || !(await keepsAWayInWithout(ctx.tx, userId, row.id))) return;
    await ctx.tx.deleteFrom('passkeys').where('id', '=', row.id).execute();
    emitForAccount(ctx, 'passkey.removed', { passkeyId: row.id, name: row.name });
  } else if (type === 'account.third_party_linked' && typeof data.provider === 'string') {
    const provider = data.provider as ProviderName;
    await lockAccount(ctx.tx, userId);
    // The account as it is now, read through the transaction.
    const user = await ctx.tx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    if (!(await hasOtherWayIn({ db: ctx.tx }, user, provider))) return;
    if (await unlink({ db: ctx.tx }, userId, provider))
      emitForAccount(ctx, 'account.third_party_unlinked', { provider });
  } else if (type === 'account.factor_added' && data.method === 'totp') {
    if (await removeTotp(ctx.tx, userId)) emitForAccount(ctx, 'account.factor_removed', { method: 'totp' });
  }
}
