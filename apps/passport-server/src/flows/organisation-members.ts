import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Identifier } from '../domain/accounts/accounts';
import { emailOf, mobileOf } from '../domain/accounts/targets';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { normaliseUsername } from '../lib/identifiers';
import { rateLimitKey } from '../lib/ip';
import { HOUR } from '../limits';
import { invite } from './organisation-invitations';

/**
 * Adding a member with a role, which invites them (the other member capabilities are operations:
 * src/operations/organisation/members.ts). It moves over with the invitations it creates.
 */

/** An account named by username, mobile or e-mail (an '@' means e-mail, a leading '+' or digits a mobile). */
export function accountIdentifier(app: FastifyInstance, input: string): Identifier {
  const value = input.trim();
  if (value.includes('@')) return { kind: 'email', value: emailOf(value) };
  if (/^\+?[0-9][0-9 -]{4,}$/.test(value)) return { kind: 'mobile', value: mobileOf(app, value) };
  const username = normaliseUsername(value);
  if (!username) throw new PassportError('invalidParam', { field: 'account' });
  return { kind: 'username', value: username };
}

/**
 * Adds a member with a role (member:create and role:assign; the role's permissions must all be the
 * caller's) by inviting their mobile or e-mail: the person accepts, as any invitation is accepted, so
 * nobody becomes a member without asking. No account is looked up, so the answer is the same whether
 * or not one holds the contact; a username (which only a lookup could reach) is refused. Each call is
 * charged to the caller's account and client address (an hourly budget), whatever it answers.
 */
export async function createUserWithRole(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; account: string; deputy_name: string; role_key: string },
) {
  const { user } = requireSession(request);
  await chargeMemberAdd(app, request, user.id);
  const account = accountIdentifier(app, input.account);
  if (account.kind === 'username') throw new PassportError('invalidParam', { field: 'account' });
  return invite(
    app,
    request,
    account.kind,
    {
      subject_uid: input.subject_uid,
      deputy_name: input.deputy_name,
      role_keys: [input.role_key],
      contact: account.value,
    },
    ['member:create', 'role:assign'],
  );
}

/** One add charged to the caller's account and client address; RATE_LIMITED past either's hourly budget. */
async function chargeMemberAdd(app: FastifyInstance, request: FastifyRequest, userId: string) {
  const limit = app.runtime.limits.memberAddsPerCallerPerHour;
  const counts = await Promise.all(
    [`user:${userId}`, `ip:${rateLimitKey(request.ip)}`].map((key) =>
      app.store.incr(`memberadd:${key}`, HOUR),
    ),
  );
  if (counts.some((count) => count > limit)) throw new PassportError('rateLimited');
}
