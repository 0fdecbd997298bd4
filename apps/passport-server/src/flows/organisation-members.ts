import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Identifier } from '../domain/accounts/accounts';
import { emailOf, mobileOf } from '../domain/accounts/targets';
import { type PageArgs, pageOf, window } from '../domain/organisations/organisations';
import { deputyView } from '../domain/organisations/views';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { normaliseUsername } from '../lib/identifiers';
import { rateLimitKey } from '../lib/ip';
import { HOUR } from '../limits';
import { invite } from './organisation-invitations';

/** Member identities (deputies): list, rename, freeze, remove, and inviting a member with a role. */

/** The role keys of some deputies, by deputy id. */
async function roleKeysOf(app: FastifyInstance, deputyIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (deputyIds.length === 0) return out;
  const rows = await app.db
    .selectFrom('deputy_roles')
    .innerJoin('roles', 'roles.id', 'deputy_roles.role_id')
    .select(['deputy_roles.deputy_id', 'roles.role_key'])
    .where('deputy_roles.deputy_id', 'in', deputyIds)
    .orderBy('roles.role_key')
    .execute();
  for (const row of rows) out.set(row.deputy_id, [...(out.get(row.deputy_id) ?? []), row.role_key]);
  return out;
}

/** A subject's members, paged (member:read); the manager first. */
export async function listDeputies(
  app: FastifyInstance,
  request: FastifyRequest,
  input: PageArgs & { sec_subject_uid: string },
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, input.sec_subject_uid);
  app.organisations.require(actor, 'member:read');
  const base = app.db.selectFrom('deputies').where('subject_id', '=', actor.subject.id);
  const { limit, offset } = window(input);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('is_manager', 'desc')
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const keys = await roleKeysOf(
    app,
    rows.map((r) => r.id),
  );
  return pageOf(
    rows.map((r) => deputyView(r, keys.get(r.id))),
    Number(count.n),
    { page: input.page, page_size: limit },
  );
}

/** The caller's own member identities in every subject, paged. */
export async function listIdentities(app: FastifyInstance, request: FastifyRequest, input: PageArgs) {
  const { user } = requireSession(request);
  const base = app.db.selectFrom('deputies').where('user_id', '=', user.id);
  const { limit, offset } = window(input);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const keys = await roleKeysOf(
    app,
    rows.map((r) => r.id),
  );
  return pageOf(
    rows.map((r) => deputyView(r, keys.get(r.id))),
    Number(count.n),
    { page: input.page, page_size: limit },
  );
}

/** Renames an identity: one's own, or another's with member:update. */
export async function updateDeputy(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { sec_subject_uid: string; user_identity_id: string; deputy_name: string },
) {
  const { user } = requireSession(request);
  const orgs = app.organisations;
  const actor = await orgs.actorIn(user, input.sec_subject_uid);
  const target = await orgs.deputyIn(actor.subject.id, input.user_identity_id);
  if (target.id !== actor.deputy.id) orgs.require(actor, 'member:update');
  const now = app.runtime.now();
  await app.db
    .updateTable('deputies')
    .set({ deputy_name: input.deputy_name, updated_at: now })
    .where('id', '=', target.id)
    .execute();
  return deputyView({ ...target, deputy_name: input.deputy_name, updated_at: now });
}

/** Freezes or thaws an identity (member:freeze); never the manager. */
export async function freezeDeputy(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { sec_subject_uid: string; user_identity_id: string; is_frozen: number },
) {
  const { user } = requireSession(request);
  const orgs = app.organisations;
  const actor = await orgs.actorIn(user, input.sec_subject_uid);
  orgs.require(actor, 'member:freeze');
  const target = await orgs.deputyIn(actor.subject.id, input.user_identity_id);
  if (Number(target.is_manager) === 1) throw new PassportError('managerProtected');
  const now = app.runtime.now();
  await app.db
    .updateTable('deputies')
    .set({ is_frozen: input.is_frozen, updated_at: now })
    .where('id', '=', target.id)
    .execute();
  return deputyView({ ...target, is_frozen: input.is_frozen, updated_at: now });
}

/** Removes an identity (member:delete); never the manager. Its role links go; its sessions fall back to personal. */
export async function deleteDeputy(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { sec_subject_uid: string; user_identity_id: string },
) {
  const { user } = requireSession(request);
  const orgs = app.organisations;
  const actor = await orgs.actorIn(user, input.sec_subject_uid);
  orgs.require(actor, 'member:delete');
  const target = await orgs.deputyIn(actor.subject.id, input.user_identity_id);
  if (Number(target.is_manager) === 1) throw new PassportError('managerProtected');
  await removeIdentity(app, target.id);
  return { deleted: true as const };
}

/**
 * Removes a member identity that is not the manager, and every session acting as it at once (issue 13,
 * item 3): a removed or departed member keeps no session in the organisation, not even a personal
 * fallback of one that was acting as it.
 */
async function removeIdentity(app: FastifyInstance, deputyId: string) {
  await app.db.transaction().execute(async (trx) => {
    // Sessions first: the foreign key would otherwise set their identity to null (personal).
    await trx.deleteFrom('sessions').where('deputy_id', '=', deputyId).execute();
    const gone = await trx
      .deleteFrom('deputies')
      .where('id', '=', deputyId)
      .where('is_manager', '=', 0)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1) throw new PassportError('managerProtected');
  });
}

/** Leaves a subject: one's own identity goes (never the manager's), with its sessions. */
export async function leaveSubject(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { sec_subject_uid: string },
) {
  const { user } = requireSession(request);
  const deputy = await app.db
    .selectFrom('deputies')
    .selectAll()
    .where('user_id', '=', user.id)
    .where('subject_id', '=', input.sec_subject_uid)
    .executeTakeFirst();
  if (!deputy) throw new PassportError('subjectNotFound');
  if (Number(deputy.is_manager) === 1) throw new PassportError('managerProtected');
  await removeIdentity(app, deputy.id);
  return { left: true as const };
}

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
