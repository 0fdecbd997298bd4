import { type Static, Type } from 'typebox';
import type { User } from '../../db/schema';
import { keepsAWayIn, rebind, setUsername } from '../../domain/identifiers/bindings';
import { spendVerification } from '../../domain/verification-tickets/verification-tickets';
import { PassportError } from '../../errors';
import type { EventType } from '../../events/catalogue';
import { knownLanguage } from '../../lib/language';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';
import { emitForAccount } from './emit';

/**
 * The account's own identifiers (docs/identifiers.md): binding and changing a mobile or e-mail, and a
 * username (with a first password when the account has none). The request's side
 * (src/flows/identifiers.ts) proves what needs the request before these run: the code sent to the new
 * target (the codes service, in the store), the current password (a slow hash), the new password's
 * strength and hash. What they check and change they read and write through the transaction: who holds
 * the target, the session-bound verification ticket of a change, the rebind and its events, the other
 * sessions a `kick_other` ends.
 */

type PersonContext = OperationContext<CallerOf<{ kind: 'person' }>>;

const Channel = Type.Union([Type.Literal('mobile'), Type.Literal('email')]);

const PutInput = Type.Object({
  channel: Channel,
  /** The new mobile or e-mail, normalised; the request's side proved it with a code. */
  to: Type.String({ minLength: 1 }),
  /** 1: take it off another account that holds it, when that one keeps another way in. */
  change_bind: Type.Optional(Type.Integer()),
  /** 1: end every other session of the account. */
  kick_other: Type.Optional(Type.Integer()),
  /** A change's verification ticket (auth/verify, account/verify) this session earned. */
  ticket: Type.Optional(Type.String()),
});

export const IdentifierPut = Type.Object({
  kicked_sessions: Type.Integer(),
  /** Whether the target was taken off another account. */
  moved: Type.Boolean(),
});

/** The account as it is now, read through the transaction (the session's copy may be older). */
async function currentUser(ctx: PersonContext): Promise<User> {
  const user = await ctx.tx
    .selectFrom('users')
    .selectAll()
    .where('id', '=', ctx.caller.user.id)
    .executeTakeFirst();
  if (!user) throw new PassportError('notLoggedIn');
  return user;
}

async function put(
  ctx: PersonContext,
  step: 'bind' | 'change',
  input: Static<typeof PutInput>,
): Promise<Static<typeof IdentifierPut>> {
  const { channel, to } = input;
  const user = await currentUser(ctx);
  const from = user[channel];
  if (step === 'bind' && from) throw new PassportError('identifierBound', { channel });
  if (step === 'change' && !from) throw new PassportError('identifierNotBound', { channel });
  const owner = await ctx.tx.selectFrom('users').selectAll().where(channel, '=', to).executeTakeFirst();
  let movedFrom: User | null = null;
  if (owner && owner.id !== user.id) {
    if (input.change_bind !== 1) throw new PassportError('identifierTaken');
    if (!keepsAWayIn(owner, channel)) throw new PassportError('moveWouldLockOut');
    movedFrom = owner;
  }
  if (step === 'change') {
    if (!ctx.caller.sessionId) throw new PassportError('verificationInvalid');
    await spendVerification(ctx.tx, ctx.secret, ctx.now(), {
      userId: user.id,
      sessionId: ctx.caller.sessionId,
      ticket: input.ticket ?? '',
      purpose: 'change_identifier',
    });
  }
  const events = await rebind(
    ctx.tx,
    { user, channel, from: step === 'bind' ? null : from, to, movedFrom },
    ctx.now(),
  );
  for (const event of events) ctx.emit(event);
  // The replaced mobile or e-mail hears of it: the sign-in notices tell the account's channels as they
  // are after the change (src/events/consumers/sign-in-notices.ts), and events keep identifiers masked.
  if (step === 'change' && from) {
    const language = knownLanguage(user.language);
    ctx.gate.notify({
      kind: { wayIn: channel === 'mobile' ? 'mobile_changed' : 'email_changed' },
      channel,
      to: from,
      ...(language && { language }),
    });
  }
  let kicked = 0;
  if (input.kick_other === 1 && ctx.caller.sessionId) {
    const ended = await ctx.tx
      .deleteFrom('sessions')
      .where('user_id', '=', user.id)
      .where('token_hash', '!=', ctx.caller.sessionId)
      .executeTakeFirst();
    kicked = Number(ended.numDeletedRows);
    if (kicked > 0) emitForAccount(ctx, 'account.session_revoked', { reason: 'revoked' });
  }
  return { kicked_sessions: kicked, moved: movedFrom !== null };
}

const PUT_EVENTS = ['account.identifier_unbound', 'account.session_revoked'] as const satisfies EventType[];

/** mobile/bind, email/bind: a mobile or e-mail on an account that has none. It adds a way in: a step-up. */
export const bindIdentifier = defineOperation({
  name: 'account.identifier.bind',
  input: PutInput,
  output: IdentifierPut,
  caller: caller.person,
  stepUp: 'window',
  emits: ['account.identifier_bound', ...PUT_EVENTS],
  run: (ctx, input) => put(ctx, 'bind', input),
});

/**
 * mobile/change, email/change: replaces the account's mobile or e-mail. The verification ticket this
 * session earned (spent here, with the change) is its proof: a fresher one than the step-up's.
 */
export const changeIdentifier = defineOperation({
  name: 'account.identifier.change',
  input: PutInput,
  output: IdentifierPut,
  caller: caller.person,
  emits: ['account.identifier_changed', ...PUT_EVENTS],
  run: (ctx, input) => put(ctx, 'change', input),
});

const Done = Type.Object({});

async function putUsername(ctx: PersonContext, username: string, passwordHash: string | null) {
  const user = await currentUser(ctx);
  if (user.username) throw new PassportError('usernameAlreadySet');
  const holder = await ctx.tx
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirst();
  if (holder) throw new PassportError(holder.id === user.id ? 'usernameAlreadySet' : 'usernameTaken');
  await setUsername(ctx.tx, user, username, passwordHash, ctx.now());
  return {};
}

/**
 * account/set on an account with a password: a username. The request's side checked the current
 * password (itself a fresh verification).
 */
export const setAccountUsername = defineOperation({
  name: 'account.username.set',
  input: Type.Object({ username: Type.String({ minLength: 1 }) }),
  output: Done,
  caller: caller.person,
  emits: ['account.username_set'],
  async run(ctx, input) {
    const done = await putUsername(ctx, input.username, null);
    emitForAccount(ctx, 'account.username_set', {});
    return done;
  },
});

/**
 * account/set on an account without a password: a username and a first password together (the hash
 * the request's side made). It adds a way in: a step-up.
 */
export const setAccountUsernameAndPassword = defineOperation({
  name: 'account.username.set_with_password',
  input: Type.Object({
    username: Type.String({ minLength: 1 }),
    password_hash: Type.String({ minLength: 1 }),
  }),
  output: Done,
  caller: caller.person,
  stepUp: 'window',
  emits: ['account.password_set'],
  async run(ctx, input) {
    const done = await putUsername(ctx, input.username, input.password_hash);
    emitForAccount(ctx, 'account.password_set', {});
    return done;
  },
});
