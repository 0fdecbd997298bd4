import {
  addUserRoles,
  allUserRoles,
  banRole,
  createRole,
  deleteUserRoles,
  explainPermission,
  listRoles,
  listUserRoles,
  resourceList,
  roleInfo,
  updateRole,
  userPermissions,
} from '../../flows/organisation-roles';
import { affiliatePaths as paths } from '../../protocol';
import {
  Count,
  ExplainData,
  LinkPage,
  PermissionsData,
  ResourcePage,
  RoleData,
  RolePage,
  schemas,
} from '../../schemas/organisations';
import { flowRoute } from '../declare';

/** Resources, roles, member-role links, permissions (flows/organisation-roles). */

export const resourceListRoute = flowRoute({
  method: 'GET',
  schema: schemas.resourceList,
  data: ResourcePage,
  at: [['aff', paths.resourceList]],
  run: (app, request) => resourceList(app, request, request.query),
});

export const roleCreate = flowRoute({
  method: 'POST',
  schema: schemas.roleCreate,
  data: RoleData,
  at: [['aff', paths.roleCreate]],
  run: (app, request) => createRole(app, request, request.body),
});

export const roleUpdate = flowRoute({
  method: 'POST',
  schema: schemas.roleUpdate,
  data: RoleData,
  at: [['aff', paths.roleUpdate]],
  run: (app, request) => updateRole(app, request, request.body),
});

export const roleBan = flowRoute({
  method: 'POST',
  schema: schemas.roleBan,
  data: RoleData,
  at: [['aff', paths.roleBan]],
  run: (app, request) => banRole(app, request, request.body),
});

export const roleList = flowRoute({
  method: 'GET',
  schema: schemas.roleList,
  data: RolePage,
  at: [['aff', paths.roleList]],
  run: (app, request) => listRoles(app, request, request.query),
});

export const roleInfoRoute = flowRoute({
  method: 'GET',
  schema: schemas.roleInfo,
  data: RoleData,
  at: [['aff', paths.roleInfo]],
  run: (app, request) => roleInfo(app, request, request.query),
});

export const userRoleAdd = flowRoute({
  method: 'POST',
  schema: schemas.userRoleAdd,
  data: Count,
  at: [['aff', paths.userRoleAdd]],
  run: (app, request) => addUserRoles(app, request, request.body),
});

export const userRoleDelete = flowRoute({
  method: 'POST',
  schema: schemas.userRoleDelete,
  data: Count,
  at: [['aff', paths.userRoleDelete]],
  run: (app, request) => deleteUserRoles(app, request, request.body),
});

export const userRoleList = flowRoute({
  method: 'GET',
  schema: schemas.userRoleList,
  data: LinkPage,
  at: [['aff', paths.userRoleList]],
  run: (app, request) => listUserRoles(app, request, request.query),
});

export const userRoleAll = flowRoute({
  method: 'GET',
  schema: schemas.userRoleAll,
  data: LinkPage,
  at: [['aff', paths.userRoleAll]],
  run: (app, request) => allUserRoles(app, request, request.query),
});

export const userPermissionsRoute = flowRoute({
  method: 'GET',
  schema: schemas.userPermissions,
  data: PermissionsData,
  at: [['aff', paths.userPermissions]],
  run: (app, request) => userPermissions(app, request, request.query),
});

export const permissionExplain = flowRoute({
  method: 'GET',
  schema: schemas.permissionExplain,
  data: ExplainData,
  at: [['aff', paths.permissionExplain]],
  run: (app, request) => explainPermission(app, request, request.query),
});
