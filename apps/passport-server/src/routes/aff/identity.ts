import { memberSwitch, subjectLogin, subjectLoginList } from '../../flows/identity-sign-in';
import { orgForgotPassword } from '../../flows/org-forgot-password';
import { affiliatePaths as paths } from '../../protocol';
import { LoginListData, PasswordForgotten, SignedInAs, schemas } from '../../schemas/organisations';
import { flowRoute } from '../declare';

/** Signing in as an identity, and the organisation forgot password (flows/identity-sign-in). */

export const subjectLoginListRoute = flowRoute({
  method: 'GET',
  schema: schemas.subjectLoginList,
  data: LoginListData,
  at: [['aff', paths.subjectLoginList]],
  run: (app, request) => subjectLoginList(app, request),
});

export const subjectLoginRoute = flowRoute({
  method: 'POST',
  schema: schemas.subjectLogin,
  data: SignedInAs,
  at: [['aff', paths.subjectLogin]],
  run: (app, request, reply) => subjectLogin(app, request, reply, request.body),
});

export const memberSwitchRoute = flowRoute({
  method: 'POST',
  schema: schemas.memberSwitch,
  data: SignedInAs,
  at: [['passport', paths.memberSwitch]],
  run: (app, request, reply) => memberSwitch(app, request, reply, request.body),
});

export const orgForgotPasswordRoute = flowRoute({
  method: 'POST',
  schema: schemas.forgotPassword,
  data: PasswordForgotten,
  at: [['aff', paths.forgotPassword]],
  run: (app, request, reply) => orgForgotPassword(app, request, reply, request.body),
});
