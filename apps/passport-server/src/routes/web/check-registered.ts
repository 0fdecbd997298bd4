import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Identifier } from '../../domain/accounts/accounts';
import { emailOf, mobileOf } from '../../domain/accounts/targets';
import { PassportError } from '../../errors';
import { rateLimitKey } from '../../lib/ip';
import { HOUR } from '../../limits';
import { paths, webSuccess } from '../../protocol';
import { checkEmailRegisteredSchema, checkMobileRegisteredSchema } from '../../schemas/register';

/**
 * Charges one lookup to the client address (IPv6 by its /64, every textual form alike) before anything
 * else, invalid input included; over `limits.checkRegisteredPerIpPerHour` it is a 429. Mobile and e-mail
 * share the counter, and the counter sits in the handler, so every path spelling that reaches the route
 * (trailing slash, doubled slashes) pays the same.
 */
async function charge(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const count = await app.store.incr(`checkreg:ip:${rateLimitKey(request.ip)}`, HOUR);
  if (count > app.runtime.limits.checkRegisteredPerIpPerHour) throw new PassportError('rateLimited');
}

async function lookup(app: FastifyInstance, identifier: Extract<Identifier, { kind: 'mobile' | 'email' }>) {
  return webSuccess({ is_registered: (await app.accounts.find(identifier)) !== undefined });
}

/**
 * user/check_mobile_registered and user/check_email_registered: whether an identifier has an account.
 * This is an enumeration oracle by design (the sign-up form asks it); it is held to a strict per-address
 * limit (README.md, "Check registered").
 */
const checkRegistered: FastifyPluginAsyncTypebox = async (app) => {
  // The risk rule `lookup` answers CHALLENGE_REQUIRED (with a verify_center_decision_conf) past a few
  // lookups per address or device, before `charge` runs: a solved challenge buys each further lookup.
  app.post(paths.web.userCheckMobileRegistered, { schema: checkMobileRegisteredSchema }, async (request) => {
    await app.risk.require(request, 'lookup');
    await charge(app, request);
    return lookup(app, { kind: 'mobile', value: mobileOf(app, request.body.mobile) });
  });

  app.post(paths.web.userCheckEmailRegistered, { schema: checkEmailRegisteredSchema }, async (request) => {
    await app.risk.require(request, 'lookup');
    await charge(app, request);
    return lookup(app, { kind: 'email', value: emailOf(request.body.email) });
  });
};

export default checkRegistered;
