import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { invoke, type Principal } from '../adapters/invoke';
import { requestOf } from '../adapters/request';
import { accountInfo } from '../domain/accounts/account-info';
import { type ActiveIdentity, createIdentityLookup } from '../domain/organisations/identity-lookup';
import type { OpenedSignIn } from '../domain/sessions/browser';
import { requireSession, type Session } from '../domain/sessions/sessions';
import { leaveOrganisationIdentity } from '../operations/sign-in/identity';
import type { IdentityData } from '../schemas/organisations';
import { admitSignIn, finishSignIn } from './complete-sign-in';

/**
 * The request's side of signing in as an identity (spec §6 "Login as a chosen subject and identity",
 * member switch; the operations in src/operations/sign-in/identity.ts), and the active identity as
 * account/info and /GetUserToken carry it, with the identity's permissions read at that moment.
 */

/** Lookups per server instance (domain/organisations/identity-lookup), made on first use. */
const lookups = new WeakMap<FastifyInstance, ReturnType<typeof createIdentityLookup>>();
function lookupOf(app: FastifyInstance) {
  let lookup = lookups.get(app);
  if (!lookup) {
    lookup = createIdentityLookup(app);
    lookups.set(app, lookup);
  }
  return lookup;
}

/**
 * The active identity as account/info and the product token carry it, or undefined for the personal
 * one; synchronous on SQLite's fast path, a promise otherwise.
 */
export function activeIdentity(
  app: FastifyInstance,
  session: Session,
  { fresh = false }: { fresh?: boolean } = {},
): ActiveIdentity | undefined | Promise<ActiveIdentity | undefined> {
  if (!session.deputyId) return undefined;
  // `fresh`: read the organisation version now, not the one the session lookup read with the row (a
  // token must not carry an identity as it was before a ban committed while the request waited).
  return lookupOf(app)(session.userId, session.deputyId, fresh ? undefined : session.orgVersion);
}

/**
 * account/info: the account, and the active identity when one is. Synchronous unless the lookup waits.
 * `plaintext`: the person's own identifiers unmasked (need_plaintext).
 */
export function accountWithIdentity(app: FastifyInstance, request: FastifyRequest, plaintext = false) {
  const session = requireSession(request);
  const info = accountInfo(session, { plaintext });
  const org = activeIdentity(app, session);
  const withOrg = (found: ActiveIdentity | undefined) => (found ? { ...info, org: found } : info);
  return org instanceof Promise ? org.then(withOrg) : withOrg(org);
}

/**
 * The identity sign-ins' adapter (src/operations/sign-in/identity.ts): the session's person, admitted
 * as a sign-in by the session itself; without a session the operation answers NOT_LOGGED_IN.
 */
export async function sessionSignIn(app: FastifyInstance, request: FastifyRequest): Promise<Principal> {
  const session = request.session;
  if (!session) return { kind: 'anonymous' };
  const admitted = await admitSignIn(app, request, session.user, { newUser: false, proof: 'session' });
  // What the session proved carries over to the identity's session: an organisation's second-factor
  // requirement judges it.
  return admitted.kind === 'person' ? { ...admitted, factorVerifiedAt: session.factorVerifiedAt } : admitted;
}

/**
 * The identity sign-ins' answer: the account acting as the identity now (its cookies set), or with
 * need_frozen_user=1 the frozen identity asked for, the session as it was.
 */
export async function answerSignedInAs(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  { output }: { output: { signedIn: OpenedSignIn } | { frozen: Static<typeof IdentityData> } },
) {
  if ('frozen' in output) return { ...accountInfo(requireSession(request)), frozen_identity: output.frozen };
  const next = finishSignIn(app, request, reply, output.signedIn);
  const org = await activeIdentity(app, next);
  return { ...accountInfo(next), ...(org && { org }) };
}

/**
 * What a logout in organisation mode would leave, for its confirmation page: the session's identity
 * when it acts for that organisation, else null (the personal identity, another organisation, an id
 * that names none, no session: one answer, so the page tells nobody whether the organisation exists).
 */
export async function identityLeftBy(
  app: FastifyInstance,
  request: FastifyRequest,
  subjectId: string,
): Promise<ActiveIdentity | null> {
  const identity = request.session && (await activeIdentity(app, request.session));
  return identity?.sec_subject_uid === subjectId ? identity : null;
}

/**
 * Logout in organisation mode (`subject_aid`, spec §2): a session acting as the person's identity in
 * that organisation goes back to the personal identity — a sign-in by the session itself, as a switch
 * to '0' is — and the person stays signed in. A session acting for anything else (the personal
 * identity, another organisation) is not that organisation's, and is left as it is; so is no session.
 * Answers whether the identity was left.
 */
export async function leaveOrganisation(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  subjectId: string,
): Promise<boolean> {
  // A session acting as the person has no organisation to leave; which one it acts for is read by the
  // operation, in the transaction that switches.
  if (!request.session?.deputyId) return false;
  const principal = await sessionSignIn(app, request);
  const { signedIn } = await invoke(
    app,
    leaveOrganisationIdentity,
    { subject_uid: subjectId },
    principal,
    requestOf(app, request),
  );
  if (signedIn) finishSignIn(app, request, reply, signedIn);
  return signedIn !== null;
}
