import { operationRoute } from '../../adapters/operation-route';
import {
  explainPermission,
  listResources,
  memberPermissions,
} from '../../operations/organisation/permissions';
import {
  grantRole,
  listRoleLinks,
  listRoleMembers,
  revokeRole,
} from '../../operations/organisation/role-grants';
import { banRole, createRole, listRoles, roleInfo, updateRole } from '../../operations/organisation/roles';
import { affiliatePaths as paths } from '../../protocol';
import { schemas } from '../../schemas/organisations';

/** Resources, roles, member-role links, permissions: the operations of src/operations/organisation. */

export const resourceListRoute = operationRoute(listResources, {
  method: 'GET',
  schema: schemas.resourceList,
  at: [['aff', paths.resourceList]],
});

export const roleCreate = operationRoute(createRole, {
  method: 'POST',
  schema: schemas.roleCreate,
  at: [['aff', paths.roleCreate]],
});

export const roleUpdate = operationRoute(updateRole, {
  method: 'POST',
  schema: schemas.roleUpdate,
  at: [['aff', paths.roleUpdate]],
});

export const roleBan = operationRoute(banRole, {
  method: 'POST',
  schema: schemas.roleBan,
  at: [['aff', paths.roleBan]],
});

export const roleList = operationRoute(listRoles, {
  method: 'GET',
  schema: schemas.roleList,
  at: [['aff', paths.roleList]],
});

export const roleInfoRoute = operationRoute(roleInfo, {
  method: 'GET',
  schema: schemas.roleInfo,
  at: [['aff', paths.roleInfo]],
});

export const userRoleAdd = operationRoute(grantRole, {
  method: 'POST',
  schema: schemas.userRoleAdd,
  at: [['aff', paths.userRoleAdd]],
});

export const userRoleDelete = operationRoute(revokeRole, {
  method: 'POST',
  schema: schemas.userRoleDelete,
  at: [['aff', paths.userRoleDelete]],
});

export const userRoleList = operationRoute(listRoleMembers, {
  method: 'GET',
  schema: schemas.userRoleList,
  at: [['aff', paths.userRoleList]],
});

export const userRoleAll = operationRoute(listRoleLinks, {
  method: 'GET',
  schema: schemas.userRoleAll,
  at: [['aff', paths.userRoleAll]],
});

export const userPermissionsRoute = operationRoute(memberPermissions, {
  method: 'GET',
  schema: schemas.userPermissions,
  at: [['aff', paths.userPermissions]],
});

export const permissionExplain = operationRoute(explainPermission, {
  method: 'GET',
  schema: schemas.permissionExplain,
  at: [['aff', paths.permissionExplain]],
});
