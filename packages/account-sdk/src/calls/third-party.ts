import type { AccountClient } from '../client/types';
import { DEFAULTS } from '../protocol/defaults';
import type {
  AccountInfo,
  AuthBindPayload,
  AuthUnbindPayload,
  BindLoginPayload,
  Extra,
  LinkedData,
  OAuthLoginPayload,
  OAuthMobileData,
  OAuthProfileData,
  ThirdPartyAccountsData,
} from '../protocol/types';
import { frozen, unbind } from './defaults';
import { type Call, type CallArgs, defineCall } from './define-call';

/**
 * Third-party sign-in (GitHub, Google, WeChat) and linked accounts. A module of its own, so an app's bundler
 * can leave these calls to the pages that use them (the callback pages, the account centre).
 */

const oauthFull = /* @__PURE__ */ defineCall<OAuthLoginPayload, AccountInfo>(
  '/passport/web/auth/login/',
  frozen,
);
const oauthOnly = /* @__PURE__ */ defineCall<OAuthLoginPayload, AccountInfo>(
  '/passport/web/auth/login_only/',
  frozen,
);

/**
 * Exchanges a third-party authorization code for a session. Uses the login-only endpoint unless
 * `login_only: false` (then an account may be created). Login-only fails with OAUTH_NOT_LINKED and a
 * `profile_key` for an identity no account links (`OAuthNotLinkedData`).
 */
export const oauthLogin: Call<OAuthLoginPayload, AccountInfo> = <T = AccountInfo>(
  client: AccountClient,
  ...[{ login_only = DEFAULTS.oauthLoginOnly, ...payload }, options]: CallArgs<OAuthLoginPayload>
) => (login_only ? oauthOnly : oauthFull)<T>(client, payload as OAuthLoginPayload, options);

/** Signs in with an e-mail (or SMS) code and links the pending third-party profile (`profile_key`). */
export const authBindLogin = /* @__PURE__ */ defineCall<BindLoginPayload, AccountInfo>(
  '/passport/web/auth/bind_login/',
  frozen,
);
/** Signs in (or up) with an SMS code and links the pending third-party profile (`profile_key`). */
export const mobileBindLogin = /* @__PURE__ */ defineCall<BindLoginPayload, AccountInfo>(
  '/passport/web/mobile/bind_login/',
  frozen,
);
/** The signed-in account of this browser's session, which every app of the deployment shares. */
export const shareLogin = /* @__PURE__ */ defineCall<Extra, AccountInfo>('/passport/web/auth/share_login/');

/** Binds a third-party account. */
export const bindAuth = /* @__PURE__ */ defineCall<AuthBindPayload, LinkedData>(
  '/passport/web/auth/bind/',
  unbind,
);
/** Unbinds a third-party account. */
export const unbindAuth = /* @__PURE__ */ defineCall<AuthUnbindPayload, LinkedData>(
  '/passport/web/auth/unbind/',
);
/** Moves a third-party binding to the signed-in account. */
export const switchAuthBind = /* @__PURE__ */ defineCall<AuthBindPayload, LinkedData>(
  '/passport/web/auth/switch_bind/',
  unbind,
);

/** The configured third-party providers and, signed in, the linked identities. */
export const thirdPartyAccounts = /* @__PURE__ */ defineCall<Extra, ThirdPartyAccountsData>(
  '/passport/auth/providers/',
  null,
  'GET',
);
/**
 * For a pending third-party profile (`profile_key`): whether its verified e-mail has an account, and
 * that account's masked mobile.
 */
export const showOauthMobile = /* @__PURE__ */ defineCall<Extra, OAuthMobileData>(
  '/passport/auth/show_oauth_mobile/',
  null,
  'GET',
);
/** The pending profile of a `profile_key` (name, avatar), in the browser that signed in. */
export const getOauthProfile = /* @__PURE__ */ defineCall<Extra, OAuthProfileData>(
  '/web/user/get/oauth_profile/',
  null,
  'GET',
);
