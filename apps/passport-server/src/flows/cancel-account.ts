import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CANCEL_TICKET_PURPOSE, type CancelWay, cancelCheck } from '../domain/cancellation/cancellation';
import { codeLaneOf } from '../domain/codes/codes';
import { currentPasswordIsRight } from '../domain/passwords/failures';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { mask } from '../lib/identifiers';
import { languageOf } from '../lib/language';
import { CodeType } from '../protocol';

/**
 * Account cancellation's proof step (spec §4): the person verifies with the code and password rules
 * of the rest of the server (the one-time codes service and its guess budget; the password failure
 * counters of password/update) and gets a short-lived single-use cancel_ticket bound to their account;
 * cancel/confirm spends it (src/operations/account/cancellation.ts). It stays a flow: the codes go
 * through lanes and counters read from the request (its address, its device) and kept in the store.
 */

/** The purpose of the codes sent to the account's own mobile or e-mail: "logged-in verify" (22). */
const PURPOSE = CodeType.oldMobile;

/** The target of a way, or CANCEL_WAY_UNAVAILABLE. */
function targetOf(way: CancelWay, user: { mobile: string | null; email: string | null }) {
  const target = way === 'mobile' ? user.mobile : way === 'email' ? user.email : null;
  if (!target) throw new PassportError('cancelWayUnavailable', { way });
  return target;
}

export async function requestCancellation(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { way: CancelWay; send?: number; code?: string; password?: string },
) {
  const { user } = requireSession(request);
  const scope = { db: app.db, now: app.runtime.now(), config: app.config };
  const check = await cancelCheck(app.cancellation, scope, user);
  if (check.blockers.length > 0) throw new PassportError('cancelBlocked', { blockers: check.blockers });
  if (user.cancel_erase_at !== null) throw new PassportError('cancelAlreadyPending');

  if (input.way === 'password') {
    if (!user.password_hash) throw new PassportError('cancelWayUnavailable', { way: 'password' });
    if (input.password === undefined) throw new PassportError('invalidParam', { field: 'body/password' });
    await verifyCurrentPassword(app, request, user.id, user.password_hash, input.password);
  } else {
    const channel = input.way;
    const target = targetOf(channel, user);
    const lane = await codeLaneOf(app, request, channel, target);
    if (input.send === 1) {
      const sent = await app.codes.send({
        channel,
        target,
        purpose: PURPOSE,
        ip: request.ip,
        language: languageOf(request),
        lane,
      });
      return { target: mask(target), retry_time: sent.retryAfter, expires_in: sent.expiresIn };
    }
    if (input.code === undefined) throw new PassportError('invalidParam', { field: 'body/code' });
    await app.codes.verify({ channel, target, purpose: PURPOSE, code: input.code, lane });
  }
  const issued = await app.tickets.issue({
    purpose: CANCEL_TICKET_PURPOSE,
    channel: 'mobile',
    target: user.id,
    userId: user.id,
  });
  return { cancel_ticket: issued.ticket, expires_in: issued.expiresIn };
}

/** The password check of password/update: the same counters per address and per account. */
async function verifyCurrentPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  userId: string,
  hash: string,
  password: string,
) {
  if (!(await currentPasswordIsRight(app, request.ip, userId, hash, password)))
    throw new PassportError('currentPasswordWrong');
}
