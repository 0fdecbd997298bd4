import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Channel, codeLaneOf } from '../domain/codes/codes';
import {
  CHANGE_PURPOSES,
  identifiersOf,
  type PasswordChanged,
  policy,
} from '../domain/passwords/new-password';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { CodeType } from '../protocol';
import { storeChanged } from './new-password';

/** The signed-in user, their own mobile or e-mail for a change, and the checked new password. */
async function changeTarget(
  app: FastifyInstance,
  request: FastifyRequest,
  channel: Channel,
  password: string,
) {
  const { user } = requireSession(request);
  const target = channel === 'mobile' ? user.mobile : user.email;
  if (!target) throw new PassportError(channel === 'mobile' ? 'invalidMobile' : 'invalidEmail');
  return { user, target, pw: await policy(app, request, password, identifiersOf(user)) };
}

/**
 * The request's side of account.password.change (src/flows/new-password.ts stores it).
 */

/** Signed in: a new password with a code sent to the account's own mobile or e-mail (type 11 or 22). */
export async function changeByCode(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { channel: Channel; code: string; type?: number | undefined; password: string },
): Promise<PasswordChanged> {
  const { user, target, pw } = await changeTarget(app, request, input.channel, input.password);
  const purpose = input.type ?? CodeType.changePassword;
  if (!CHANGE_PURPOSES.has(purpose)) throw new PassportError('codeTypeInvalid');
  await app.codes.verify({
    channel: input.channel,
    target,
    purpose,
    code: input.code,
    lane: await codeLaneOf(app, request, input.channel, target),
  });
  return storeChanged(app, request, reply, user, pw);
}

/** Signed in: a new password with the verify ticket of such a code, bound to this user. */
export async function changeByTicket(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { channel: Channel; ticket: string; password: string },
): Promise<PasswordChanged> {
  const { user, pw } = await changeTarget(app, request, input.channel, input.password);
  // The ticket is spent in the change's transaction: a change that fails keeps it.
  return storeChanged(app, request, reply, user, pw, { ticket: input.ticket, channel: input.channel });
}

/** A change request names a code (which wins) or a ticket; neither is INVALID_PARAM. */
export function changePassword(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: {
    channel: Channel;
    code?: string | undefined;
    ticket?: string | undefined;
    type?: number | undefined;
    password: string;
  },
): Promise<PasswordChanged> {
  const { channel, code, ticket, type, password } = input;
  if (code !== undefined) return changeByCode(app, request, reply, { channel, code, type, password });
  if (ticket !== undefined) return changeByTicket(app, request, reply, { channel, ticket, password });
  throw new PassportError('invalidParam', { field: 'code' });
}
