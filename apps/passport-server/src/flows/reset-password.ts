import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Channel, codeLaneOf } from '../domain/codes/codes';
import {
  identifiersOf,
  type PasswordChanged,
  policy,
  RESET_PURPOSES,
  targetOf,
} from '../domain/passwords/new-password';
import { PassportError } from '../errors';
import { CodeType } from '../protocol';
import { completeSignIn } from './complete-sign-in';
import { storeReset } from './new-password';

/**
 * The request's side of account.password.reset (stored through src/flows/new-password.ts).
 * A forgotten password, reset by code, by ticket, or reset-and-login. A reset for an address without an
 * account needs a valid code first (sending that code behaves the same for every target: send_code
 * never looks up accounts), so ACCOUNT_NOT_FOUND only ever reaches whoever owns the mobile or e-mail.
 */

/**
 * Which reset-code purpose a request names (the first reset purpose by default); CODE_TYPE_INVALID for
 * any other, so a login or register code never resets a password.
 */
function resetPurpose(type: number | undefined): number {
  const purpose = type ?? CodeType.resetPassword;
  if (!RESET_PURPOSES.has(purpose)) throw new PassportError('codeTypeInvalid');
  return purpose;
}

export interface ResetByCode {
  channel: Channel;
  /** The mobile number or e-mail address as sent (normalised here). */
  to: string;
  code: string;
  type?: number | undefined;
  password: string;
}

/**
 * Checks a reset code and the new password (the password first, so a refused one costs no code); the
 * account, or ACCOUNT_NOT_FOUND after a valid code.
 */
async function checkReset(app: FastifyInstance, request: FastifyRequest, input: ResetByCode) {
  const target = targetOf(app, input.channel, input.to);
  const purpose = resetPurpose(input.type);
  const pw = await policy(app, request, input.password, [target]);
  await app.codes.verify({
    channel: input.channel,
    target,
    purpose,
    code: input.code,
    lane: await codeLaneOf(app, request, input.channel, target),
  });
  const user = await app.accounts.find({ kind: input.channel, value: target });
  if (!user) throw new PassportError('accountNotFound');
  await policy(app, request, pw, identifiersOf(user));
  return { user, pw };
}

/** Resets a forgotten password with a reset code; every session dies and nobody is signed in. */
export async function resetByCode(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: ResetByCode,
): Promise<PasswordChanged> {
  const { user, pw } = await checkReset(app, request, input);
  return storeReset(app, request, reply, user, pw);
}

/** Resets a forgotten password with an e-mail (or SMS) reset code and signs this browser in anew. */
export async function resetAndLogin(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: ResetByCode,
) {
  const { user, pw } = await checkReset(app, request, input);
  await storeReset(app, request, reply, user, pw);
  // A sign-in like any other: an unknown device of an account with a mobile passes second verification
  // first (an e-mail code alone must not sign a new device in), unless the code went to that mobile.
  const proof = input.channel === 'mobile' ? 'mobileCode' : 'emailCode';
  return completeSignIn(app, request, reply, user, { newUser: false, proof });
}

/** Resets a password with the verify ticket of a reset code; every session dies. */
export async function resetByTicket(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { channel: Channel; ticket: string; password: string },
): Promise<PasswordChanged> {
  const demand = { ticket: input.ticket, purposes: RESET_PURPOSES, channel: input.channel };
  // Checked against the ticket's target before the ticket is spent: a refused password costs nothing.
  const claim = await app.tickets.peek(demand);
  const pw = await policy(app, request, input.password, [claim.target]);
  const user = await app.accounts.find({ kind: claim.channel, value: claim.target });
  if (user) await policy(app, request, pw, identifiersOf(user));
  if (!user) {
    // Spent all the same: a ticket answers ACCOUNT_NOT_FOUND once.
    await app.tickets.consume({ ...demand, target: claim.target });
    throw new PassportError('accountNotFound');
  }
  // Spent in the reset's transaction: a reset that fails keeps it.
  return storeReset(app, request, reply, user, pw, {
    ticket: input.ticket,
    channel: claim.channel as Channel,
    target: claim.target,
  });
}
