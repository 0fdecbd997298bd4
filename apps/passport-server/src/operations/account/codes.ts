import { type Static, Type } from 'typebox';
import { TicketData } from '../../schemas/verify';
import { caller, defineOperation, type OperationContext } from '../define';

/**
 * A code checked (src/flows/check-code.ts: the codes service spends it in the lane of the request's
 * device, in the store, before the transaction) earns a single-use verify ticket for the same purpose,
 * channel and target, issued here through the transaction. A purpose that needs a session binds the
 * ticket to the signed-in person: that is its own operation, whose caller is that person.
 */

const CheckedCode = Type.Object({
  /** The code's purpose (the spec's code type), checked against the endpoint's before the code. */
  purpose: Type.Integer(),
  channel: Type.Union([Type.Literal('mobile'), Type.Literal('email')]),
  /** The normalised mobile or e-mail the code was sent to. */
  target: Type.String({ minLength: 1 }),
});

async function ticketFor(ctx: OperationContext, input: Static<typeof CheckedCode>, userId: string | null) {
  const issued = await ctx.tickets.issue({ ...input, userId });
  return { ticket: issued.ticket, verify_ticket: issued.ticket, expires_in: issued.expiresIn };
}

/** validate_code, check_code, email/verify, email/register_verify: a code that needs no session. */
export const codeTicket = defineOperation({
  name: 'account.code.ticket',
  input: CheckedCode,
  output: TicketData,
  caller: caller.anonymous,
  emits: [],
  run: (ctx, input) => ticketFor(ctx, input, null),
});

/** The same for a purpose that needs a session (change password, old mobile, …): bound to the person. */
export const personCodeTicket = defineOperation({
  name: 'account.code.ticket_signed_in',
  input: CheckedCode,
  output: TicketData,
  caller: caller.person,
  emits: [],
  run: (ctx, input) => ticketFor(ctx, input, ctx.caller.user.id),
});
