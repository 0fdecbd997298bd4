import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Channel, codeLaneOf } from '../domain/codes/codes';
import { PassportError } from '../errors';
import { isPurpose, needsSession } from '../lib/purposes';

export interface CodeCheck {
  channel: Channel;
  target: string;
  purpose: number | undefined;
  code: string;
  /** Purposes this endpoint accepts; any code purpose of the spec when absent. */
  allowed?: ReadonlySet<number>;
}

/**
 * Uses a code up and hands out a verify ticket for the same purpose, channel and target. A purpose that
 * needs a session (change password, old mobile, …) binds the ticket to the signed-in user; the endpoint
 * that consumes such a ticket checks the user and the target again.
 */
export async function ticketForCode(app: FastifyInstance, request: FastifyRequest, check: CodeCheck) {
  const { purpose } = check;
  if (purpose === undefined || !isPurpose(purpose) || (check.allowed && !check.allowed.has(purpose)))
    throw new PassportError('codeTypeInvalid');
  let userId: string | null = null;
  if (needsSession(purpose)) {
    if (!request.session) throw new PassportError('notLoggedIn');
    userId = request.session.userId;
  }
  await app.codes.verify({
    channel: check.channel,
    target: check.target,
    purpose,
    code: check.code,
    lane: await codeLaneOf(app, request, check.channel, check.target),
  });
  const issued = await app.tickets.issue({ purpose, channel: check.channel, target: check.target, userId });
  return { ticket: issued.ticket, verify_ticket: issued.ticket, expires_in: issued.expiresIn };
}
