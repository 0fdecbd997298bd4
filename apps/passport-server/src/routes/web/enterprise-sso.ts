import { finishEnterpriseSignIn, startEnterpriseSignIn } from '../../flows/enterprise-sign-in';
import { enterpriseSsoPaths } from '../../protocol';
import { SsoSignedIn, SsoStarted, schema } from '../../schemas/enterprise-sso';
import { flowRoute } from '../declare';

/**
 * Signing in through an organisation's connection (flows/enterprise-sign-in, docs/enterprise-sso.md):
 * the work e-mail's start, then the callback page's exchange, which ends in the sign-in operation.
 */

export const ssoStartRoute = flowRoute({
  method: 'POST',
  schema: schema.start,
  data: SsoStarted,
  at: [['passport', enterpriseSsoPaths.start]],
  run: (app, request, reply) => startEnterpriseSignIn(app, request, reply, request.body),
});

export const ssoLoginRoute = flowRoute({
  method: 'POST',
  schema: schema.login,
  data: SsoSignedIn,
  at: [['passport', enterpriseSsoPaths.login]],
  run: (app, request, reply) => finishEnterpriseSignIn(app, request, reply, request.body),
});

export const ENTERPRISE_SSO_ROUTES = [ssoStartRoute, ssoLoginRoute] as const;
