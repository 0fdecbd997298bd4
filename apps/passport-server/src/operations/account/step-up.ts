import { Type } from 'typebox';
import {
  VERIFICATION_PURPOSES,
  type VerificationPurpose,
} from '../../domain/verification-tickets/verification-tickets';
import { PassportError } from '../../errors';
import { Verified } from '../../schemas/identifiers';
import { caller, defineOperation } from '../define';

/**
 * auth/verify and account/verify: the person proved it is them again — the request's side checked the
 * code, the factor or the password (src/flows/identifiers.ts: the codes service, the factors' budget and
 * the slow hash stay outside the transaction). Here the browser's session records when (the step-up's
 * clock) and earns a single-use ticket bound to it for `purpose`, in one commit.
 */
export const verifyStepUp = defineOperation({
  name: 'account.step_up.verify',
  input: Type.Object({
    /** How it was proven: 'mobile', 'email', 'password', or a factor's name. */
    method: Type.String({ minLength: 1, maxLength: 32 }),
    purpose: Type.Unsafe<VerificationPurpose>(
      Type.Union(VERIFICATION_PURPOSES.map((purpose) => Type.Literal(purpose))),
    ),
    /** The proof was a second factor (what an organisation's requirement asks for). */
    factor: Type.Boolean(),
  }),
  output: Verified,
  caller: caller.person,
  emits: [],
  async run(ctx, input) {
    // Only the session the browser presented earns it, and only for its own person.
    if (ctx.sessions.current?.userId !== ctx.caller.user.id) throw new PassportError('notLoggedIn');
    await ctx.sessions.verified({ factor: input.factor });
    const issued = await ctx.verifications.issue(
      { id: ctx.sessions.current.id, userId: ctx.caller.user.id },
      input.purpose,
      input.method,
    );
    return {
      ticket: issued.ticket,
      expires_in: issued.expiresIn,
      method: input.method,
      purpose: input.purpose,
    };
  },
});
