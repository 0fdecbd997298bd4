import { operationRoute } from '../../adapters/operation-route';
import { answerSignedInAs, sessionSignIn } from '../../flows/identity-sign-in';
import { orgForgotPassword } from '../../flows/org-forgot-password';
import { listOwnIdentities, signInAsIdentity, switchIdentity } from '../../operations/sign-in/identity';
import { affiliatePaths as paths } from '../../protocol';
import { PasswordForgotten, SignedInAs, schemas } from '../../schemas/organisations';
import { flowRoute } from '../declare';

/**
 * Signing in as an identity: the operations of src/operations/sign-in/identity.ts, admitted and
 * answered by src/flows/identity-sign-in.ts; and the organisation forgot password (a flow).
 */

export const subjectLoginListRoute = operationRoute(listOwnIdentities, {
  method: 'GET',
  schema: schemas.subjectLoginList,
  at: [['aff', paths.subjectLoginList]],
});

export const subjectLoginRoute = operationRoute(signInAsIdentity, {
  method: 'POST',
  schema: schemas.subjectLogin,
  data: SignedInAs,
  at: [['aff', paths.subjectLogin]],
  principal: sessionSignIn,
  after: answerSignedInAs,
});

export const memberSwitchRoute = operationRoute(switchIdentity, {
  method: 'POST',
  schema: schemas.memberSwitch,
  data: SignedInAs,
  at: [['passport', paths.memberSwitch]],
  principal: sessionSignIn,
  after: answerSignedInAs,
});

export const orgForgotPasswordRoute = flowRoute({
  method: 'POST',
  schema: schemas.forgotPassword,
  data: PasswordForgotten,
  at: [['aff', paths.forgotPassword]],
  run: (app, request, reply) => orgForgotPassword(app, request, reply, request.body),
});
