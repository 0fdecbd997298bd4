import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  abandonCancellation,
  CANCEL_PURPOSES,
  CANCEL_TICKET_PURPOSE,
  type CancelWay,
  cancelCheck,
  exportAccountData,
  startCoolingOff,
  verifyWays,
} from '../domain/cancellation/cancellation';
import { codeLaneOf } from '../domain/codes/codes';
import { currentPasswordIsRight } from '../domain/passwords/failures';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { recordAccountEvent } from '../events/record';
import { mask } from '../lib/identifiers';
import { languageOf } from '../lib/language';
import { CodeType } from '../protocol';

/**
 * Account cancellation (spec §4: verify way, check, confirm with abandon, request). The person
 * verifies inside this flow with the code and password rules of the rest of the server (the one-time
 * codes service and its guess budget; the password failure counters of password/update) and gets a
 * short-lived single-use cancel_ticket bound to their account; cancel/confirm spends it.
 */

/** The purpose of the codes sent to the account's own mobile or e-mail: "logged-in verify" (22). */
const PURPOSE = CodeType.oldMobile;

export function cancelVerifyWay(request: FastifyRequest) {
  return { ways: verifyWays(requireSession(request).user) };
}

export function checkCancellation(app: FastifyInstance, request: FastifyRequest) {
  return cancelCheck(app, requireSession(request).user);
}

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
  const check = await cancelCheck(app, user);
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

/**
 * cancel/confirm: with a cancel_ticket, starts the cooling-off period and signs the account out
 * everywhere (this browser included); with abandon=1, withdraws a pending cancellation (the person
 * signed in again during the period).
 */
export async function confirmCancellation(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { cancel_ticket?: string; abandon?: number },
) {
  const { user } = requireSession(request);
  if (input.abandon === 1) {
    await abandonCancellation(app, user.id);
    await recordAccountEvent(app, request, app.db, {
      type: 'account.cancellation_abandoned',
      userId: user.id,
      data: {},
    });
    return { state: 'abandoned' as const };
  }
  if (!input.cancel_ticket) throw new PassportError('invalidParam', { field: 'body/cancel_ticket' });
  const check = await cancelCheck(app, user);
  if (check.blockers.length > 0) throw new PassportError('cancelBlocked', { blockers: check.blockers });
  await app.tickets.consume({
    ticket: input.cancel_ticket,
    purposes: CANCEL_PURPOSES,
    channel: 'mobile',
    target: user.id,
    userId: user.id,
  });
  const eraseAt = await startCoolingOff(app, user);
  await recordAccountEvent(app, request, app.db, {
    type: 'account.cancellation_requested',
    userId: user.id,
    data: { eraseAt },
  });
  await app.sessions.signOut(request, reply);
  await app.sessions.revokeAll(user.id);
  return { state: 'pending' as const, erase_at: eraseAt };
}

export async function exportData(app: FastifyInstance, request: FastifyRequest) {
  return exportAccountData(app, requireSession(request).user);
}
