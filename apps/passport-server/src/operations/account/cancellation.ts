import {
  abandonCancellation,
  CANCEL_PURPOSES,
  cancelCheck,
  exportAccountData,
  lockedAccount,
  startCoolingOff,
  verifyWays,
} from '../../domain/cancellation/cancellation';
import type { CancelScope } from '../../domain/cancellation/registry';
import { PassportError } from '../../errors';
import { AccountExport, CancelCheck, CancelConfirmed, CancelWays, schema } from '../../schemas/cancel';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';
import { emitForAccount } from './emit';

/**
 * Account cancellation (docs/cancellation.md). The person proves it is them in a flow (a code or the
 * password, src/flows/cancel-account.ts) for a single-use cancel_ticket; confirming spends it here, in
 * one transaction with the blockers' check and the event.
 */

type PersonContext = OperationContext<CallerOf<{ kind: 'person' }>>;

const scopeOf = (ctx: PersonContext): CancelScope => ({ db: ctx.tx, now: ctx.now(), config: ctx.config });

export const cancellationWays = defineOperation({
  name: 'account.cancellation.ways',
  input: schema.verifyWay.querystring,
  output: CancelWays,
  caller: caller.person,
  emits: [],
  run: async (ctx) => ({ ways: verifyWays(ctx.caller.user) }),
});

export const checkCancellation = defineOperation({
  name: 'account.cancellation.check',
  input: schema.check.querystring,
  output: CancelCheck,
  caller: caller.person,
  emits: [],
  run: (ctx) => cancelCheck(ctx.cancellation, scopeOf(ctx), ctx.caller.user),
});

/**
 * With a cancel_ticket, starts the cooling-off period and ends every session of the account (the
 * route clears this browser's cookie); with abandon=1, withdraws a pending cancellation (the person
 * signed in again during the period). The account's row is locked first, so a hand-over of an
 * organisation to this person either committed before (and its blocker is seen) or waits and finds
 * the cancellation pending.
 */
export const confirmCancellation = defineOperation({
  name: 'account.cancellation.confirm',
  input: schema.confirm.body,
  output: CancelConfirmed,
  caller: caller.person,
  emits: ['account.cancellation_requested', 'account.cancellation_abandoned'],
  async run(ctx, input) {
    const userId = ctx.caller.user.id;
    if (input.abandon === 1) {
      await abandonCancellation(ctx.tx, userId, ctx.now());
      emitForAccount(ctx, 'account.cancellation_abandoned', {});
      return { state: 'abandoned' as const };
    }
    if (!input.cancel_ticket) throw new PassportError('invalidParam', { field: 'body/cancel_ticket' });
    const user = await lockedAccount(ctx.tx, userId);
    if (!user) throw new PassportError('notLoggedIn');
    const check = await cancelCheck(ctx.cancellation, scopeOf(ctx), user);
    if (check.blockers.length > 0) throw new PassportError('cancelBlocked', { blockers: check.blockers });
    await ctx.tickets.consume({
      ticket: input.cancel_ticket,
      purposes: CANCEL_PURPOSES,
      channel: 'mobile',
      target: userId,
      userId,
    });
    const eraseAt = await startCoolingOff(ctx.tx, userId, ctx.now(), ctx.config.cancelCoolingOffDays);
    emitForAccount(ctx, 'account.cancellation_requested', { eraseAt });
    return { state: 'pending' as const, erase_at: eraseAt };
  },
});

export const exportAccount = defineOperation({
  name: 'account.data.export',
  input: schema.export.querystring,
  output: AccountExport,
  caller: caller.person,
  emits: [],
  run: (ctx) => exportAccountData(ctx.tx, ctx.caller.user, ctx.now()),
});
