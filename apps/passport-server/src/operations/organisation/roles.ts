import { assertGrantable, assertWithinReach } from '../../access/statement';
import { roleIn } from '../../domain/organisations/actors';
import { stringListOf } from '../../domain/organisations/infos';
import { pageOf, storedPermissions } from '../../domain/organisations/organisations';
import { insertRole, rolePage, saveRole } from '../../domain/organisations/roles';
import { roleView } from '../../domain/organisations/views';
import { PassportError } from '../../errors';
import { MANAGER_ROLE_KEY, ORGANISATION_LIMITS } from '../../protocol';
import { RoleData, RolePage, schemas } from '../../schemas/organisations';
import { caller, defineOperation } from '../define';
import { emitInSubject } from './emit';

/**
 * A subject's roles. The grant rules (src/access/statement.ts) hold for each change: new entries must
 * all be the caller's, and a role granting more than the caller holds is out of its reach.
 */

const subject = (input: { subject_uid: string }) => input.subject_uid;
const permissionList = (raw: string | readonly string[] | undefined) =>
  stringListOf('permissions', raw, ORGANISATION_LIMITS.permissionsMax);

export const createRole = defineOperation({
  name: 'organisation.role.create',
  input: schemas.roleCreate.body,
  output: RoleData,
  caller: caller.identity('role:create'),
  subject,
  emits: ['organisation.role.created'],
  async run(ctx, input) {
    if (input.role_key.toLowerCase() === MANAGER_ROLE_KEY) throw new PassportError('roleKeyReserved');
    const permissions = permissionList(input.permissions) ?? [];
    assertGrantable(ctx.access, ctx.caller.permissions, permissions);
    const now = ctx.now();
    const role = {
      id: ctx.newId(),
      subject_id: ctx.caller.subject.id,
      role_key: input.role_key,
      role_name: input.role_name,
      permissions: JSON.stringify(permissions),
      description: input.description ?? '',
      is_banned: 0,
      created_at: now,
      updated_at: now,
    };
    await insertRole(ctx.tx, role);
    emitInSubject(ctx, 'organisation.role.created', {
      roleKey: role.role_key,
      roleName: role.role_name,
      permissions,
    });
    return roleView(role);
  },
});

export const updateRole = defineOperation({
  name: 'organisation.role.update',
  input: schemas.roleUpdate.body,
  output: RoleData,
  caller: caller.identity('role:update'),
  subject,
  emits: ['organisation.role.updated'],
  async run(ctx, input) {
    const role = await roleIn(ctx.tx, ctx.caller.subject.id, input.role_key);
    const permissions = permissionList(input.permissions);
    if (permissions) assertGrantable(ctx.access, ctx.caller.permissions, permissions);
    assertWithinReach(ctx.access, ctx.caller.permissions, storedPermissions(role.permissions));
    const next = {
      ...role,
      ...(input.role_name !== undefined && { role_name: input.role_name }),
      ...(permissions && { permissions: JSON.stringify(permissions) }),
      ...(input.description !== undefined && { description: input.description }),
      updated_at: ctx.now(),
    };
    await saveRole(ctx.tx, next);
    const fields = (r: typeof role) => ({
      roleName: r.role_name,
      permissions: storedPermissions(r.permissions),
      description: r.description,
    });
    emitInSubject(ctx, 'organisation.role.updated', {
      roleKey: role.role_key,
      ...fields(next),
      previous: fields(role),
    });
    return roleView(next);
  },
});

export const banRole = defineOperation({
  name: 'organisation.role.ban',
  input: schemas.roleBan.body,
  output: RoleData,
  caller: caller.identity('role:ban'),
  subject,
  emits: ['organisation.role.banned', 'organisation.role.unbanned'],
  async run(ctx, input) {
    const role = await roleIn(ctx.tx, ctx.caller.subject.id, input.role_key);
    // Lifting a ban restores what the role grants, and a ban takes it from every holder: either way
    // the role must be within the caller's reach.
    assertWithinReach(ctx.access, ctx.caller.permissions, storedPermissions(role.permissions));
    const next = { ...role, is_banned: input.is_banned ?? 1, updated_at: ctx.now() };
    await saveRole(ctx.tx, next);
    if (Number(next.is_banned) !== Number(role.is_banned))
      emitInSubject(ctx, next.is_banned === 1 ? 'organisation.role.banned' : 'organisation.role.unbanned', {
        roleKey: role.role_key,
      });
    return roleView(next);
  },
});

export const listRoles = defineOperation({
  name: 'organisation.role.list',
  input: schemas.roleList.querystring,
  output: RolePage,
  caller: caller.identity('role:read'),
  subject,
  emits: [],
  async run(ctx, input) {
    const { rows, total, limit } = await rolePage(ctx.tx, ctx.caller.subject.id, input);
    return pageOf(rows.map(roleView), total, { page: input.page, page_size: limit });
  },
});

export const roleInfo = defineOperation({
  name: 'organisation.role.info',
  input: schemas.roleInfo.querystring,
  output: RoleData,
  caller: caller.identity('role:read'),
  subject,
  emits: [],
  run: async (ctx, input) => roleView(await roleIn(ctx.tx, ctx.caller.subject.id, input.role_key)),
});
