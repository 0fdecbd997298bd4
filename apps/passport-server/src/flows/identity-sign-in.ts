import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accountInfo } from '../domain/accounts/account-info';
import { type ActiveIdentity, createIdentityLookup } from '../domain/organisations/identity-lookup';
import { requireSession, type Session } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { PERSONAL_IDENTITY } from '../protocol';

/**
 * Signing in as an identity (spec §6 "Login as a chosen subject and identity", member switch): the
 * subject login list, subject login and member switch. Making an identity active is a sign-in: the old
 * session dies and a new token is set, whose row holds the identity (sessions.deputy_id), so the
 * session check reads it with the session and adds no query. account/info and /GetUserToken then carry
 * it, with the identity's permissions read at that moment.
 */

/** An identity of the caller with its subject's state, or undefined (not the caller's, or none). */
async function identityOf(app: FastifyInstance, userId: string, deputyId: string, subjectId?: string) {
  let query = app.db
    .selectFrom('deputies')
    .innerJoin('subjects', 'subjects.id', 'deputies.subject_id')
    .selectAll('deputies')
    .select(['subjects.name as subject_name', 'subjects.is_frozen as subject_is_frozen'])
    .where('deputies.id', '=', deputyId)
    .where('deputies.user_id', '=', userId);
  if (subjectId !== undefined) query = query.where('deputies.subject_id', '=', subjectId);
  return query.executeTakeFirst();
}
type Identity = NonNullable<Awaited<ReturnType<typeof identityOf>>>;

const identityView = (row: Identity, active: boolean) => ({
  user_identity_id: row.id,
  sec_subject_uid: row.subject_id,
  subject_name: row.subject_name,
  deputy_name: row.deputy_name,
  is_manager: Number(row.is_manager) === 1,
  is_frozen: Number(row.is_frozen) === 1 || Number(row.subject_is_frozen) === 1 ? 1 : 0,
  subject_is_frozen: Number(row.subject_is_frozen),
  active,
});

const personalView = (session: Session) => ({
  user_identity_id: PERSONAL_IDENTITY,
  sec_subject_uid: null,
  subject_name: null,
  deputy_name: session.user.screen_name,
  is_manager: false,
  is_frozen: Number(session.user.is_frozen),
  subject_is_frozen: 0,
  active: session.deputyId === null,
});

/** The identities the signed-in person may act as: the personal one first, then each membership. */
export async function subjectLoginList(app: FastifyInstance, request: FastifyRequest) {
  const session = requireSession(request);
  const rows = await app.db
    .selectFrom('deputies')
    .innerJoin('subjects', 'subjects.id', 'deputies.subject_id')
    .selectAll('deputies')
    .select(['subjects.name as subject_name', 'subjects.is_frozen as subject_is_frozen'])
    .where('deputies.user_id', '=', session.userId)
    .orderBy('deputies.created_at')
    .orderBy('deputies.id')
    .limit(1000)
    .execute();
  return {
    items: [personalView(session), ...rows.map((row) => identityView(row, row.id === session.deputyId))],
  };
}

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

/** account/info: the account, and the active identity when one is. Synchronous unless the lookup waits. */
export function accountWithIdentity(app: FastifyInstance, request: FastifyRequest) {
  const session = requireSession(request);
  const info = accountInfo(session);
  const org = activeIdentity(app, session);
  const withOrg = (found: ActiveIdentity | undefined) => (found ? { ...info, org: found } : info);
  return org instanceof Promise ? org.then(withOrg) : withOrg(org);
}

/** A switch of identity proves nothing: the new session keeps the old one's verification time. */
const KEEP_VERIFICATION = { keepVerification: true } as const;

/**
 * Makes an identity of the caller active. '0' is the personal identity. Another person's identity, or
 * one of another subject, is SUBJECT_NOT_FOUND (the same answer as a subject that does not exist). A
 * frozen identity or subject is refused (MEMBER_FROZEN, SUBJECT_FROZEN), or with need_frozen_user=1
 * answered with its frozen state, the session unchanged.
 */
async function signInAs(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  deputyId: string,
  subjectId: string | undefined,
  needFrozenUser: number | undefined,
) {
  const session = requireSession(request);
  if (Number(session.user.is_frozen) === 1) throw new PassportError('accountFrozen');
  if (deputyId === PERSONAL_IDENTITY) {
    const next = await app.sessions.signIn(request, reply, session.userId, null, KEEP_VERIFICATION);
    return accountInfo(next);
  }
  const row = await identityOf(app, session.userId, deputyId, subjectId);
  if (!row) throw new PassportError('subjectNotFound');
  const subjectFrozen = Number(row.subject_is_frozen) === 1;
  const memberFrozen = Number(row.is_frozen) === 1;
  if (subjectFrozen || memberFrozen) {
    if (needFrozenUser === 1) return { ...accountInfo(session), frozen_identity: identityView(row, false) };
    throw new PassportError(subjectFrozen ? 'subjectFrozen' : 'memberFrozen');
  }
  const next = await app.sessions.signIn(request, reply, session.userId, row.id, KEEP_VERIFICATION);
  const org = await activeIdentity(app, next);
  return { ...accountInfo(next), ...(org && { org }) };
}

export const subjectLogin = (
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { login_subject_uid: string; user_identity_id: string; need_frozen_user?: number | undefined },
) =>
  signInAs(
    app,
    request,
    reply,
    input.user_identity_id,
    input.user_identity_id === PERSONAL_IDENTITY ? undefined : input.login_subject_uid,
    input.need_frozen_user,
  );

export const memberSwitch = (
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { to_sec_member_id: string; need_frozen_user?: number | undefined },
) => signInAs(app, request, reply, input.to_sec_member_id, undefined, input.need_frozen_user);
