import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invoke } from '../adapters/invoke';
import { gateFor, principalOf } from '../adapters/operation-route';
import { requestOf } from '../adapters/request';
import { type Channel, codeLaneOf } from '../domain/codes/codes';
import { PassportError } from '../errors';
import { isPurpose, needsSession } from '../lib/purposes';
import { codeTicket, personCodeTicket } from '../operations/account/codes';

export interface CodeCheck {
  channel: Channel;
  target: string;
  purpose: number | undefined;
  code: string;
  /** Purposes this endpoint accepts; any code purpose of the spec when absent. */
  allowed?: ReadonlySet<number>;
}

/**
 * Uses a code up and hands out a verify ticket for the same purpose, channel and target (the operations
 * of src/operations/account/codes.ts). A purpose that needs a session (change password, old mobile, …)
 * binds the ticket to the signed-in user; the endpoint that consumes such a ticket checks the user and
 * the target again.
 */
export async function ticketForCode(app: FastifyInstance, request: FastifyRequest, check: CodeCheck) {
  const { purpose } = check;
  if (purpose === undefined || !isPurpose(purpose) || (check.allowed && !check.allowed.has(purpose)))
    throw new PassportError('codeTypeInvalid');
  const signedIn = needsSession(purpose);
  if (signedIn && !request.session) throw new PassportError('notLoggedIn');
  await app.codes.verify({
    channel: check.channel,
    target: check.target,
    purpose,
    code: check.code,
    lane: await codeLaneOf(app, request, check.channel, check.target),
  });
  const input = { purpose, channel: check.channel, target: check.target };
  const context = [principalOf(request), requestOf(app, request), { gate: gateFor(app, request) }] as const;
  return signedIn
    ? invoke(app, personCodeTicket, input, ...context)
    : invoke(app, codeTicket, input, ...context);
}
