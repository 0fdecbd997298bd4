import type { FastifyInstance, FastifyRequest } from 'fastify';
import { stringListOf } from '../domain/organisations/infos';
import {
  isUniqueViolation,
  type PageArgs,
  pageOf,
  storedPermissions,
  window,
} from '../domain/organisations/organisations';
import { roleView } from '../domain/organisations/views';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { MANAGER_ROLE_KEY, ORGANISATION_LIMITS } from '../protocol';

/**
 * Roles, the resource list, member-role links, a member's permissions and their explanation. Nobody
 * grants more than they hold: a role's permissions, when created, changed or assigned, must all be the
 * caller's; a banned role grants nothing and cannot be assigned.
 */

type List = string | readonly string[] | undefined;

/** The access statement's resources and their actions, paged (any member). */
export async function resourceList(
  app: FastifyInstance,
  request: FastifyRequest,
  input: PageArgs & { subject_uid: string },
) {
  const { user } = requireSession(request);
  await app.organisations.actorIn(user, input.subject_uid);
  const rows = Object.entries(app.organisations.access.statement).map(([resource, actions]) => ({
    resource,
    actions: [...actions],
  }));
  const { limit, offset } = window(input);
  return pageOf(rows.slice(offset, offset + limit), rows.length, { page: input.page, page_size: limit });
}

export async function createRole(
  app: FastifyInstance,
  request: FastifyRequest,
  input: {
    subject_uid: string;
    role_key: string;
    role_name: string;
    permissions: List;
    description?: string | undefined;
  },
) {
  const { user } = requireSession(request);
  const orgs = app.organisations;
  const actor = await orgs.actorIn(user, input.subject_uid);
  orgs.require(actor, 'role:create');
  if (input.role_key.toLowerCase() === MANAGER_ROLE_KEY) throw new PassportError('roleKeyReserved');
  const permissions =
    stringListOf('permissions', input.permissions, ORGANISATION_LIMITS.permissionsMax) ?? [];
  orgs.assertGrantable(actor, permissions);
  const now = app.runtime.now();
  const role = {
    id: orgs.newId(),
    subject_id: actor.subject.id,
    role_key: input.role_key,
    role_name: input.role_name,
    permissions: JSON.stringify(permissions),
    description: input.description ?? '',
    is_banned: 0,
    created_at: now,
    updated_at: now,
  };
  try {
    await app.db.insertInto('roles').values(role).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new PassportError('roleExists');
    throw error;
  }
  return roleView(role);
}

export async function updateRole(
  app: FastifyInstance,
  request: FastifyRequest,
  input: {
    subject_uid: string;
    role_key: string;
    role_name?: string | undefined;
    permissions?: List;
    description?: string | undefined;
  },
) {
  const { user } = requireSession(request);
  const orgs = app.organisations;
  const actor = await orgs.actorIn(user, input.subject_uid);
  orgs.require(actor, 'role:update');
  const role = await orgs.roleIn(actor.subject.id, input.role_key);
  const permissions = stringListOf('permissions', input.permissions, ORGANISATION_LIMITS.permissionsMax);
  if (permissions) orgs.assertGrantable(actor, permissions);
  const next = {
    ...role,
    ...(input.role_name !== undefined && { role_name: input.role_name }),
    ...(permissions && { permissions: JSON.stringify(permissions) }),
    ...(input.description !== undefined && { description: input.description }),
    updated_at: app.runtime.now(),
  };
  await app.db
    .updateTable('roles')
    .set({
      role_name: next.role_name,
      permissions: next.permissions,
      description: next.description,
      updated_at: next.updated_at,
    })
    .where('id', '=', role.id)
    .execute();
  return roleView(next);
}

export async function banRole(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; role_key: string; is_banned?: number | undefined },
) {
  const { user } = requireSession(request);
  const orgs = app.organisations;
  const actor = await orgs.actorIn(user, input.subject_uid);
  orgs.require(actor, 'role:ban');
  const role = await orgs.roleIn(actor.subject.id, input.role_key);
  const is_banned = input.is_banned ?? 1;
  const updated_at = app.runtime.now();
  await app.db.updateTable('roles').set({ is_banned, updated_at }).where('id', '=', role.id).execute();
  return roleView({ ...role, is_banned, updated_at });
}

export async function listRoles(
  app: FastifyInstance,
  request: FastifyRequest,
  input: PageArgs & { subject_uid: string },
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, input.subject_uid);
  app.organisations.require(actor, 'role:read');
  const base = app.db.selectFrom('roles').where('subject_id', '=', actor.subject.id);
  const { limit, offset } = window(input);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('role_key').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(rows.map(roleView), Number(count.n), { page: input.page, page_size: limit });
}

export async function roleInfo(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; role_key: string },
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, input.subject_uid);
  app.organisations.require(actor, 'role:read');
  return roleView(await app.organisations.roleIn(actor.subject.id, input.role_key));
}

/** The deputies named, all of the subject, or MEMBER_NOT_FOUND (also for an id of another subject). */
async function deputiesIn(app: FastifyInstance, subjectId: string, ids: string[]) {
  if (ids.length === 0) throw new PassportError('invalidParam', { field: 'sec_user_identity_ids' });
  const rows = await app.db
    .selectFrom('deputies')
    .select(['id', 'is_manager'])
    .where('subject_id', '=', subjectId)
    .where('id', 'in', ids)
    .execute();
  if (rows.length !== ids.length) throw new PassportError('memberNotFound');
  return rows;
}

export async function addUserRoles(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; role_key: string; sec_user_identity_ids: List },
) {
  const { user } = requireSession(request);
  const orgs = app.organisations;
  const actor = await orgs.actorIn(user, input.subject_uid);
  orgs.require(actor, 'role:assign');
  const ids =
    stringListOf(
      'sec_user_identity_ids',
      input.sec_user_identity_ids,
      ORGANISATION_LIMITS.identitiesPerCall,
    ) ?? [];
  const role = await orgs.roleIn(actor.subject.id, input.role_key);
  if (Number(role.is_banned) === 1) throw new PassportError('roleBanned');
  orgs.assertGrantable(actor, storedPermissions(role.permissions));
  const deputies = await deputiesIn(app, actor.subject.id, ids);
  const now = app.runtime.now();
  const result = await app.db
    .insertInto('deputy_roles')
    .values(
      deputies.map((d) => ({
        deputy_id: d.id,
        role_id: role.id,
        subject_id: actor.subject.id,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['deputy_id', 'role_id']).doNothing())
    .executeTakeFirst();
  return { added: Number(result.numInsertedOrUpdatedRows ?? 0) };
}

export async function deleteUserRoles(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; role_key: string; sec_user_identity_ids: List },
) {
  const { user } = requireSession(request);
  const orgs = app.organisations;
  const actor = await orgs.actorIn(user, input.subject_uid);
  orgs.require(actor, 'role:assign');
  const ids =
    stringListOf(
      'sec_user_identity_ids',
      input.sec_user_identity_ids,
      ORGANISATION_LIMITS.identitiesPerCall,
    ) ?? [];
  const role = await orgs.roleIn(actor.subject.id, input.role_key);
  const deputies = await deputiesIn(app, actor.subject.id, ids);
  const result = await app.db
    .deleteFrom('deputy_roles')
    .where('role_id', '=', role.id)
    .where(
      'deputy_id',
      'in',
      deputies.map((d) => d.id),
    )
    .executeTakeFirst();
  return { removed: Number(result.numDeletedRows) };
}

/** Member-role links of a subject (optionally of one role), paged. */
async function links(app: FastifyInstance, subjectId: string, roleId: string | undefined, page: PageArgs) {
  let base = app.db
    .selectFrom('deputy_roles')
    .innerJoin('deputies', 'deputies.id', 'deputy_roles.deputy_id')
    .innerJoin('roles', 'roles.id', 'deputy_roles.role_id')
    .where('deputy_roles.subject_id', '=', subjectId);
  if (roleId) base = base.where('deputy_roles.role_id', '=', roleId);
  const { limit, offset } = window(page);
  const [rows, count] = await Promise.all([
    base
      .select([
        'deputies.id as user_identity_id',
        'deputies.deputy_name',
        'roles.role_key',
        'roles.role_name',
      ])
      .orderBy('roles.role_key')
      .orderBy('deputies.created_at')
      .orderBy('deputies.id')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(rows, Number(count.n), { page: page.page, page_size: limit });
}

export async function listUserRoles(
  app: FastifyInstance,
  request: FastifyRequest,
  input: PageArgs & { subject_uid: string; role_key: string },
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, input.subject_uid);
  app.organisations.require(actor, 'role:read');
  const role = await app.organisations.roleIn(actor.subject.id, input.role_key);
  return links(app, actor.subject.id, role.id, input);
}

export async function allUserRoles(
  app: FastifyInstance,
  request: FastifyRequest,
  input: PageArgs & { subject_uid: string },
) {
  const { user } = requireSession(request);
  const actor = await app.organisations.actorIn(user, input.subject_uid);
  app.organisations.require(actor, 'role:read');
  return links(app, actor.subject.id, undefined, input);
}

/** The identity asked about: the caller's own by default; another's needs member:read. */
async function subjectOf(
  app: FastifyInstance,
  request: FastifyRequest,
  subjectUid: string,
  identityId: string | undefined,
) {
  const { user } = requireSession(request);
  const orgs = app.organisations;
  const actor = await orgs.actorIn(user, subjectUid);
  if (!identityId || identityId === actor.deputy.id)
    return { deputy: actor.deputy, permissions: actor.permissions };
  orgs.require(actor, 'member:read');
  const deputy = await orgs.deputyIn(actor.subject.id, identityId);
  return { deputy, permissions: await orgs.permissionsOf(deputy) };
}

export async function userPermissions(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; identity_id?: string | undefined },
) {
  const { deputy, permissions } = await subjectOf(app, request, input.subject_uid, input.identity_id);
  const order = app.organisations.access.all;
  return {
    user_identity_id: deputy.id,
    is_manager: Number(deputy.is_manager) === 1,
    permissions: order.filter((p) => permissions.has(p)),
  };
}

/** "Why does this member have X?": the manager flag, and each unbanned role whose entries grant it. */
export async function explainPermission(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { subject_uid: string; identity_id?: string | undefined; permission: string },
) {
  const { deputy, permissions } = await subjectOf(app, request, input.subject_uid, input.identity_id);
  if (!app.organisations.access.known.has(input.permission))
    throw new PassportError('unknownPermission', { permission: input.permission });
  const rows = await app.db
    .selectFrom('deputy_roles')
    .innerJoin('roles', 'roles.id', 'deputy_roles.role_id')
    .select(['roles.role_key', 'roles.role_name', 'roles.permissions', 'roles.is_banned'])
    .where('deputy_roles.deputy_id', '=', deputy.id)
    .orderBy('roles.role_key')
    .execute();
  const granting = rows
    .map((r) => ({ ...r, permissions: storedPermissions(r.permissions) }))
    .filter((r) => r.permissions.includes(input.permission));
  return {
    user_identity_id: deputy.id,
    permission: input.permission,
    granted: permissions.has(input.permission),
    by_manager: Number(deputy.is_manager) === 1,
    roles: granting
      .filter((r) => Number(r.is_banned) === 0)
      .map(({ role_key, role_name, permissions: entries }) => ({
        role_key,
        role_name,
        permissions: entries,
      })),
    banned_roles: granting.filter((r) => Number(r.is_banned) === 1).map((r) => r.role_key),
  };
}
