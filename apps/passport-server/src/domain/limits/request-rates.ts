import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PassportError } from '../../errors';
import { rateLimitKey } from '../../lib/ip';
import { MINUTE } from '../../limits';

/**
 * Per-minute counts on cheap but unbounded requests (the numbers are `Limits`): each is one atomic
 * increment in the store (SQLite, PostgreSQL or Redis), past which RATE_LIMITED (429) answers before
 * any other work.
 */

/** Counts one QR poll (check_qrconnect) against the client address: qrPollsPerIpPerMinute. */
export async function chargeQrPoll(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const count = await app.store.incr(`qr:poll:ip:${rateLimitKey(request.ip)}`, MINUTE);
  if (count > app.runtime.limits.qrPollsPerIpPerMinute) throw new PassportError('rateLimited');
}

/**
 * Counts one SSO service ticket against the session and the client address:
 * ssoTicketsPerSessionPerMinute, ssoTicketsPerIpPerMinute.
 */
export async function chargeSsoTicket(
  app: FastifyInstance,
  request: FastifyRequest,
  sessionId: string,
): Promise<void> {
  const limits = app.runtime.limits;
  const perIp = await app.store.incr(`sso:ticket:ip:${rateLimitKey(request.ip)}`, MINUTE);
  if (perIp > limits.ssoTicketsPerIpPerMinute) throw new PassportError('rateLimited');
  const perSession = await app.store.incr(`sso:ticket:session:${sessionId}`, MINUTE);
  if (perSession > limits.ssoTicketsPerSessionPerMinute) throw new PassportError('rateLimited');
}
