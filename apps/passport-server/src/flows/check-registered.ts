import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Identifier } from '../domain/accounts/accounts';
import { deviceOf } from '../domain/risk/risk';
import { PassportError } from '../errors';
import { networkKey, rateLimitKey } from '../lib/ip';
import { HOUR } from '../limits';

/**
 * Whether an identifier has an account. This is an enumeration oracle by design (the sign-up form asks
 * it); it is held to strict limits (README.md, "Check registered"). The risk rule `lookup` answers
 * CHALLENGE_REQUIRED (with a verify_center_decision_conf) past a few lookups per address or device,
 * before the lookup is charged: a solved challenge buys each further lookup. Then one lookup is charged
 * to every group the request belongs to: its client address (IPv6 by its /64, every textual form
 * alike), its IPv6 /48 and /32, and its device when it names one; invalid input included. Over any
 * group's hourly number it is a 429. Mobile and e-mail share the counters, and the counters sit in the
 * flow, so every path spelling that reaches the route pays the same.
 *
 * `identifier` is called after the charge, so a malformed mobile or e-mail is charged too.
 */
export async function checkRegistered(
  app: FastifyInstance,
  request: FastifyRequest,
  identifier: () => Extract<Identifier, { kind: 'mobile' | 'email' }>,
) {
  await app.risk.require(request, 'lookup');
  const limits = app.runtime.limits;
  const device = deviceOf(request);
  const groups = [
    { key: `ip:${rateLimitKey(request.ip)}`, limit: limits.checkRegisteredPerIpPerHour },
    { key: networkKey(request.ip, 48), limit: limits.checkRegisteredPer48PerHour },
    { key: networkKey(request.ip, 32), limit: limits.checkRegisteredPer32PerHour },
    { key: device ? `dev:${device}` : null, limit: limits.checkRegisteredPerDevicePerHour },
  ].filter((group): group is { key: string; limit: number } => group.key !== null);
  const counts = await Promise.all(groups.map(({ key }) => app.store.incr(`checkreg:${key}`, HOUR)));
  if (groups.some(({ limit }, i) => (counts[i] ?? 0) > limit)) throw new PassportError('rateLimited');
  return { is_registered: (await app.accounts.find(identifier())) !== undefined };
}
