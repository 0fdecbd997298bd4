import { accountInfo as accountInfoOf } from '../../domain/accounts/account-info';
import { PassportError } from '../../errors';
import {
  bindLogin,
  bindThirdParty,
  oauthProfile,
  showOauthMobile,
  startThirdParty,
  switchThirdParty,
  thirdPartyAccounts,
  thirdPartySignIn,
  unbindThirdParty,
} from '../../flows/third-party';
import { paths, thirdPartyPaths } from '../../protocol';
import {
  AccountInfo,
  authBindLoginSchema,
  authBindSchema,
  authLoginOnlySchema,
  authLoginSchema,
  authRedirectSchema,
  authSwitchBindSchema,
  authUnbindSchema,
  Linked,
  mobileBindLoginSchema,
  OAuthProfile,
  oauthProfileSchema,
  ShowOauthMobile,
  shareLoginSchema,
  showOauthMobileSchema,
  ThirdPartyAccounts,
  thirdPartyAccountsSchema,
} from '../../schemas/third-party';
import { flowRoute, redirectRoute } from '../declare';

/** Third-party sign-in with GitHub, Google and WeChat (flows/third-party, docs/third-party-sign-in.md). */

/** The third-party login redirect (spec §2): a browser navigation to the provider. */
export const authRedirect = redirectRoute({
  schema: authRedirectSchema,
  at: [['passport', paths.passport.authLogin]],
  description: 'to the provider',
  to: (app, request, reply) => startThirdParty(app, request, reply, request.query),
});

export const authLoginOnly = flowRoute({
  method: 'POST',
  schema: authLoginOnlySchema,
  data: AccountInfo,
  at: [['web', paths.web.authLoginOnly]],
  run: (app, request, reply) => thirdPartySignIn(app, request, reply, request.body, false),
});

/** The callback page's code exchange that signs in (or up); open/third_party/auth is the same in the auth envelope. */
export const authLogin = flowRoute({
  method: 'POST',
  schema: authLoginSchema,
  data: AccountInfo,
  at: [
    ['web', paths.web.authLogin],
    ['open', paths.open.thirdPartyAuth],
  ],
  run: (app, request, reply) => thirdPartySignIn(app, request, reply, request.body, true),
});

export const mobileBindLogin = flowRoute({
  method: 'POST',
  schema: mobileBindLoginSchema,
  data: AccountInfo,
  at: [['web', paths.web.mobileBindLogin]],
  run: (app, request, reply) => bindLogin(app, request, reply, request.body, 'mobile'),
});

export const authBindLogin = flowRoute({
  method: 'POST',
  schema: authBindLoginSchema,
  data: AccountInfo,
  at: [['web', paths.web.authBindLogin]],
  run: (app, request, reply) => bindLogin(app, request, reply, request.body, 'any'),
});

export const authBind = flowRoute({
  method: 'POST',
  schema: authBindSchema,
  data: Linked,
  at: [['web', paths.web.authBind]],
  run: (app, request) => bindThirdParty(app, request, request.body),
});

export const authSwitchBind = flowRoute({
  method: 'POST',
  schema: authSwitchBindSchema,
  data: Linked,
  at: [['web', paths.web.authSwitchBind]],
  run: (app, request) => switchThirdParty(app, request, request.body),
});

export const authUnbind = flowRoute({
  method: 'POST',
  schema: authUnbindSchema,
  data: Linked,
  at: [['web', paths.web.authUnbind]],
  run: (app, request) => unbindThirdParty(app, request, request.body.platform_app_id),
});

export const getOauthProfile = flowRoute({
  method: 'GET',
  schema: oauthProfileSchema,
  data: OAuthProfile,
  at: [['passport', paths.profile.getOauthProfile]],
  run: (app, request) => oauthProfile(app, request, request.query.profile_key),
});

export const showOauthMobileRoute = flowRoute({
  method: 'GET',
  schema: showOauthMobileSchema,
  data: ShowOauthMobile,
  at: [['passport', paths.passport.authShowOauthMobile]],
  run: (app, request) => showOauthMobile(app, request, request.query.profile_key),
});

/**
 * auth/share_login: the apps of a Portico deployment share one passport session already, so sharing a
 * sign-in means answering the signed-in account; without a session there is nothing to share.
 */
export const shareLogin = flowRoute({
  method: 'POST',
  schema: shareLoginSchema,
  data: AccountInfo,
  at: [['web', paths.web.authShareLogin]],
  run: (_app, request) => {
    if (!request.session) throw new PassportError('notLoggedIn');
    return accountInfoOf(request.session);
  },
});

export const thirdPartyAccountsRoute = flowRoute({
  method: 'GET',
  schema: thirdPartyAccountsSchema,
  data: ThirdPartyAccounts,
  at: [['passport', thirdPartyPaths.providers]],
  run: (app, request) => thirdPartyAccounts(app, request),
});

/** Every third-party route, for routes/families. */
export const THIRD_PARTY_ROUTES = [
  authRedirect,
  authLoginOnly,
  authLogin,
  mobileBindLogin,
  authBindLogin,
  authBind,
  authSwitchBind,
  authUnbind,
  getOauthProfile,
  showOauthMobileRoute,
  shareLogin,
  thirdPartyAccountsRoute,
] as const;
