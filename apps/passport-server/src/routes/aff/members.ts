import { operationRoute } from '../../adapters/operation-route';
import { createUserWithRole } from '../../flows/organisation-members';
import {
  freezeMember,
  leaveSubject,
  listMembers,
  listOwnIdentities,
  removeMember,
  renameMember,
} from '../../operations/organisation/members';
import { affiliatePaths as paths } from '../../protocol';
import { IssuedInvitationData, invitationSchemas } from '../../schemas/invitations';
import { Deleted, schemas } from '../../schemas/organisations';
import { flowRoute } from '../declare';

/** Member identities: the operations of src/operations/organisation/members.ts, and adding a member. */

export const deputyList = operationRoute(listMembers, {
  method: 'GET',
  schema: schemas.deputyList,
  at: [['aff', paths.deputyList]],
});

export const identityList = operationRoute(listOwnIdentities, {
  method: 'GET',
  schema: schemas.identityList,
  at: [['aff', paths.identityList]],
});

export const deputyUpdate = operationRoute(renameMember, {
  method: 'POST',
  schema: schemas.deputyUpdate,
  at: [['aff', paths.deputyUpdate]],
});

export const deputyFreeze = operationRoute(freezeMember, {
  method: 'POST',
  schema: schemas.deputyFreeze,
  at: [['aff', paths.deputyFreeze]],
});

export const deputyDelete = operationRoute(removeMember, {
  method: 'POST',
  schema: schemas.deputyDelete,
  data: Deleted,
  at: [['aff', paths.deputyDelete]],
});

export const deputyLeave = operationRoute(leaveSubject, {
  method: 'POST',
  schema: invitationSchemas.deputyLeave,
  at: [['aff', paths.deputyLeave]],
});

// Adding a member invites them (flows/organisation-members): it becomes an operation with invitations.
export const userRoleCreateUser = flowRoute({
  method: 'POST',
  schema: schemas.userRoleCreateUser,
  data: IssuedInvitationData,
  at: [['aff', paths.userRoleCreateUser]],
  run: (app, request) => createUserWithRole(app, request, request.body),
});
