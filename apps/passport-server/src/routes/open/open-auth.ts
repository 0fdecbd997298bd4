import { codeSignIn } from '../../flows/code-sign-in';
import {
  authInfo,
  authorizedApps,
  connect,
  decide,
  resumeConnect,
  revokeApp,
  tokenResult,
} from '../../flows/open-auth';
import { paths } from '../../protocol';
import { AccountInfo } from '../../schemas/account';
import {
  AuthorizedApps,
  AuthTokenResult,
  authInfoSchema,
  authorizedAppsSchema,
  authTokenSchema,
  connectResumeSchema,
  connectSchema,
  decisionSchema,
  OpenAuthDecision,
  OpenAuthInfo,
  smsAuthorizeSchema,
  updateAuthorizeInfoSchema,
} from '../../schemas/open-auth';
import { type FlowRoute, flowRoute, redirectRoute } from '../declare';

/**
 * The spec's open-auth wire (/passport/open/…, the `auth` envelope) over the OpenID provider mounted at
 * /oauth (routes/open/provider-mount): what the authorization page and the account centre call. The
 * token endpoint of this family is the provider's own (POST only, RFC 6749 answers).
 */

export const openAuthInfo = flowRoute({
  method: 'GET',
  schema: authInfoSchema,
  data: OpenAuthInfo,
  at: [['open', paths.open.authInfoV2]],
  run: (app, request, reply) => authInfo(app, request, reply, request.query),
});

export const openDecision = flowRoute({
  method: 'POST',
  schema: decisionSchema,
  data: OpenAuthDecision,
  at: [['open', paths.open.webAuth]],
  run: (app, request) => decide(app, request, request.body),
});

const TO_THE_PROVIDER = 'redirect to the provider, then the authorization page';

export const openConnect = redirectRoute({
  schema: connectSchema,
  at: [['open', paths.open.connect]],
  description: TO_THE_PROVIDER,
  to: (app, request, reply) => connect(app, reply, request.query),
});

/** Follows again the connect request this browser last followed (its open-auth state cookie). */
export const openConnectResume = redirectRoute({
  schema: connectResumeSchema,
  at: [['open', paths.open.connectResume]],
  description: TO_THE_PROVIDER,
  to: (app, request) => resumeConnect(app, request),
});

export const openAuthorizedApps = flowRoute({
  method: 'GET',
  schema: authorizedAppsSchema,
  data: AuthorizedApps,
  at: [['open', paths.open.authorizedApps]],
  run: (app, request) => authorizedApps(app, request),
});

export const openUpdateAuthorizeInfo = flowRoute({
  method: 'POST',
  schema: updateAuthorizeInfoSchema,
  data: AuthorizedApps,
  at: [['open', paths.open.updateAuthorizeInfo]],
  run: (app, request) => revokeApp(app, request, request.body.client_key),
});

/**
 * auth/token: the authorization an access token carries, for the app holding it. The bearer token is
 * the credential (no cookie is read, nothing changes), so it takes no CSRF token; POST only, the token
 * in the body.
 */
export const openAuthToken = flowRoute({
  method: 'POST',
  schema: authTokenSchema,
  data: AuthTokenResult,
  at: [['open', paths.open.authToken]],
  config: { csrf: false },
  run: (app, request) => tokenResult(app, request, request.body),
});

/** sms/authorize (code purpose 26 or 27): the authorization page's SMS sign-in; open/web/sms is the same in the auth envelope. */
export const smsAuthorize = flowRoute({
  method: 'POST',
  schema: smsAuthorizeSchema,
  data: AccountInfo,
  at: [
    ['web', paths.web.smsAuthorize],
    ['open', paths.open.webSms],
  ],
  run: (app, request, reply) => {
    const { mobile, code, type } = request.body;
    return codeSignIn(app, request, reply, 'smsAuthorize', { to: mobile, code, type });
  },
});

export const OPEN_AUTH_ROUTES: readonly FlowRoute[] = [
  openAuthInfo,
  openDecision,
  openConnect,
  openConnectResume,
  openAuthorizedApps,
  openUpdateAuthorizeInfo,
  openAuthToken,
  smsAuthorize,
];
