import {
  createUserWithRole,
  deleteDeputy,
  freezeDeputy,
  listDeputies,
  listIdentities,
  updateDeputy,
} from '../../flows/organisation-members';
import { affiliatePaths as paths } from '../../protocol';
import { IssuedInvitationData } from '../../schemas/invitations';
import { Deleted, DeputyData, DeputyPage, schemas } from '../../schemas/organisations';
import { flowRoute } from '../declare';

/** Member identities (flows/organisation-members). */

export const deputyList = flowRoute({
  method: 'GET',
  schema: schemas.deputyList,
  data: DeputyPage,
  at: [['aff', paths.deputyList]],
  run: (app, request) => listDeputies(app, request, request.query),
});

export const identityList = flowRoute({
  method: 'GET',
  schema: schemas.identityList,
  data: DeputyPage,
  at: [['aff', paths.identityList]],
  run: (app, request) => listIdentities(app, request, request.query),
});

export const deputyUpdate = flowRoute({
  method: 'POST',
  schema: schemas.deputyUpdate,
  data: DeputyData,
  at: [['aff', paths.deputyUpdate]],
  run: (app, request) => updateDeputy(app, request, request.body),
});

export const deputyFreeze = flowRoute({
  method: 'POST',
  schema: schemas.deputyFreeze,
  data: DeputyData,
  at: [['aff', paths.deputyFreeze]],
  run: (app, request) => freezeDeputy(app, request, request.body),
});

export const deputyDelete = flowRoute({
  method: 'POST',
  schema: schemas.deputyDelete,
  data: Deleted,
  at: [['aff', paths.deputyDelete]],
  run: (app, request) => deleteDeputy(app, request, request.body),
});

export const userRoleCreateUser = flowRoute({
  method: 'POST',
  schema: schemas.userRoleCreateUser,
  data: IssuedInvitationData,
  at: [['aff', paths.userRoleCreateUser]],
  run: (app, request) => createUserWithRole(app, request, request.body),
});
