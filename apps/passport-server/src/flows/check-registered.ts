import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Identifier } from '../domain/accounts/accounts';
import { PassportError } from '../errors';
import { rateLimitKey } from '../lib/ip';
import { HOUR } from '../limits';

/**
 * Whether an identifier has an account. This is an enumeration oracle by design (the sign-up form asks
 * it); it is held to a strict per-address limit (README.md, "Check registered"). The risk rule `lookup`
 * answers CHALLENGE_REQUIRED (with a verify_center_decision_conf) past a few lookups per address or
 * device, before the lookup is charged: a solved challenge buys each further lookup. Then one lookup is
 * charged to the client address (IPv6 by its /64, every textual form alike), invalid input included;
 * over `limits.checkRegisteredPerIpPerHour` it is a 429. Mobile and e-mail share the counter, and the
 * counter sits in the flow, so every path spelling that reaches the route pays the same.
 *
 * `identifier` is called after the charge, so a malformed mobile or e-mail is charged too.
 */
export async function checkRegistered(
  app: FastifyInstance,
  request: FastifyRequest,
  identifier: () => Extract<Identifier, { kind: 'mobile' | 'email' }>,
) {
  await app.risk.require(request, 'lookup');
  const count = await app.store.incr(`checkreg:ip:${rateLimitKey(request.ip)}`, HOUR);
  if (count > app.runtime.limits.checkRegisteredPerIpPerHour) throw new PassportError('rateLimited');
  return { is_registered: (await app.accounts.find(identifier())) !== undefined };
}
