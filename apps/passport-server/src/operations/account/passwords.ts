import { type Static, Type } from 'typebox';
import type { User } from '../../db/schema';
import { revokeOpenAuthOf } from '../../domain/open-auth/cancellation';
import { CHANGE_PURPOSES, RESET_PURPOSES } from '../../domain/passwords/new-password';
import {
  endSessions,
  forgetDevices,
  storeFirstPasswordHash,
  storePasswordHash,
} from '../../domain/passwords/stored';
import { PassportError } from '../../errors';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';
import { emitForAccount } from './emit';

/**
 * Storing a password (docs/operations.md, docs/security.md). The request's side proves the person and
 * judges the new password outside the transaction (src/flows/*-password.ts: a code, a ticket's claim,
 * the current password, the strength estimator and the slow hash); these store the hash it made.
 *
 * A reset or a change also ends every session of the account (the adapter re-issues this browser's
 * for a change, in the same transaction), forgets its remembered devices (all of them for a reset; all
 * but the browser that changed it), and tells the person on every verified channel, in the gate's fixed
 * wording. A reset also revokes every app the account authorised: whoever had the account may have
 * authorised one, and its refresh token would outlive the sessions. A change, made by a person who
 * knew the password, keeps them (the account centre lists them, and "this wasn't me" revokes them). A first password adds a way in: it needs a step-up and leaves the other sessions alone.
 */

type PersonContext = OperationContext<CallerOf<{ kind: 'person' }>>;

const Channel = Type.Union([Type.Literal('mobile'), Type.Literal('email')]);

/** A hash the request's side made; never on the wire. */
const PasswordHash = Type.String({ minLength: 1, description: 'the new password, hashed' });

export const PasswordStored = Type.Object({
  user_id: Type.String(),
  /** Whether the account had a password before (a change, or a first one set). */
  had_password: Type.Boolean(),
  /** Whether the account is frozen: it is not signed in anew. */
  frozen: Type.Boolean(),
});
type Stored = Static<typeof PasswordStored>;

const storedFor = (user: User): Stored => ({
  user_id: user.id,
  had_password: user.password_hash !== null,
  frozen: Number(user.is_frozen) === 1,
});

/** Tells the person on each of their verified channels (their mobile, their e-mail) what changed. */
function notifyOwner(ctx: PersonContext, kind: 'password_reset' | 'password_changed') {
  const { user } = ctx.caller;
  if (user.mobile) ctx.gate.notify({ kind, channel: 'mobile', to: user.mobile });
  if (user.email) ctx.gate.notify({ kind, channel: 'email', to: user.email });
}

/** password/set: a first password on an account that has none; the adapter judged and hashed it. */
export const setFirstPassword = defineOperation({
  name: 'account.password.set',
  input: Type.Object({ password_hash: PasswordHash }),
  output: PasswordStored,
  caller: caller.person,
  stepUp: 'window',
  emits: ['account.password_set'],
  async run(ctx, input) {
    const { user } = ctx.caller;
    if (user.password_hash) throw new PassportError('passwordAlreadySet');
    // Conditional: of two concurrent sets one wins, the other is PASSWORD_ALREADY_SET.
    if (!(await storeFirstPasswordHash(ctx.tx, user.id, input.password_hash, ctx.now())))
      throw new PassportError('passwordAlreadySet');
    emitForAccount(ctx, 'account.password_set', {});
    return storedFor(user);
  },
});

/** A verify ticket the operation spends in its transaction (a refused change keeps it). */
const TicketProof = Type.Object({ ticket: Type.String(), channel: Channel });

/**
 * password/change and password/update: the signed-in person proved it is them (a code to their own
 * mobile or e-mail or the current password, checked by the request's side; or a ticket, spent here).
 */
export const changePassword = defineOperation({
  name: 'account.password.change',
  input: Type.Object({
    password_hash: PasswordHash,
    ticket: Type.Optional(TicketProof),
    /** The token hash of this browser's remembered device, which stays remembered; null: none. */
    keep_device: Type.Union([Type.String(), Type.Null()]),
  }),
  output: PasswordStored,
  caller: caller.person,
  emits: ['account.password_changed', 'account.password_set'],
  async run(ctx, input) {
    const { user } = ctx.caller;
    if (input.ticket) {
      const target = user[input.ticket.channel];
      if (!target)
        throw new PassportError(input.ticket.channel === 'mobile' ? 'invalidMobile' : 'invalidEmail');
      await ctx.tickets.consume({
        ticket: input.ticket.ticket,
        purposes: CHANGE_PURPOSES,
        channel: input.ticket.channel,
        target,
        userId: user.id,
      });
    }
    await storePasswordHash(ctx.tx, user.id, input.password_hash, ctx.now());
    await endSessions(ctx.tx, user.id);
    await forgetDevices(ctx.tx, user.id, input.keep_device);
    emitForAccount(ctx, user.password_hash ? 'account.password_changed' : 'account.password_set', {});
    // A first password is a new way in: the sign-in notices tell of it (one notice, not two).
    if (user.password_hash) notifyOwner(ctx, 'password_changed');
    return storedFor(user);
  },
});

/**
 * A forgotten password, reset by whoever proved a code sent to the account's mobile or e-mail (the
 * request's side checked it and found the account), or by a verify ticket of such a code, spent here.
 */
export const resetPassword = defineOperation({
  name: 'account.password.reset',
  input: Type.Object({
    password_hash: PasswordHash,
    ticket: Type.Optional(Type.Object({ ticket: Type.String(), channel: Channel, target: Type.String() })),
  }),
  output: PasswordStored,
  caller: caller.person,
  emits: ['account.password_reset', 'account.app_revoked'],
  async run(ctx, input) {
    const { user } = ctx.caller;
    if (input.ticket) await ctx.tickets.consume({ ...input.ticket, purposes: RESET_PURPOSES });
    await storePasswordHash(ctx.tx, user.id, input.password_hash, ctx.now());
    await endSessions(ctx.tx, user.id);
    await forgetDevices(ctx.tx, user.id, null);
    for (const { clientId, appName } of await revokeOpenAuthOf(ctx.tx, user.id))
      emitForAccount(ctx, 'account.app_revoked', { clientId, appName, reason: 'revoked' });
    emitForAccount(ctx, 'account.password_reset', {});
    notifyOwner(ctx, 'password_reset');
    return storedFor(user);
  },
});
