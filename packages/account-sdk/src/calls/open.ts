import type { AccountClient, CallOptions } from '../client/types';
import type { openPaths } from '../protocol/paths';
import type {
  AccountInfo,
  AuthorizedApp,
  MobileCodePayload,
  NextPayload,
  OAuthLoginPayload,
  OpenAuthDecision,
  OpenAuthDecisionPayload,
  OpenAuthInfo,
  OpenAuthTokenClaims,
  OpenAuthTokenPayload,
  OpenAuthTokenResult,
  PasswordLoginPayload,
  QrcodeData,
  QrStatusData,
  SendCodeData,
  SmsLoginPayload,
  TokenPayload,
} from '../protocol/types';
import { appFormat, frozen, nextRoot } from './defaults';

type OpenPath = (typeof openPaths)[keyof typeof openPaths];

/**
 * `CodeType.openAuth` written out: a property read of the CodeType table in a pure call's arguments
 * keeps the table in every page that imports the SDK, whether it calls these or not.
 */
const OPEN_AUTH_CODE = { type: 27 } as const;

/** Open authorization's calls answer the auth envelope (`{status_code: 0, data}`; docs/open-authorization.md). */
function openCall<P extends object, D>(
  path: OpenPath,
  method: 'GET' | 'POST' = 'POST',
  defaults?: Partial<P>,
) {
  return <T = D>(client: AccountClient, payload?: P, options?: CallOptions): Promise<T> =>
    client.request<T>({ ...options, path, method, data: { ...defaults, ...payload }, envelope: 'auth' });
}

/** The consent page's question: the app asking, its required and optional scopes, who is signed in. */
export const getOpenAuthInfo = /* @__PURE__ */ openCall<{ interaction: string }, OpenAuthInfo>(
  '/passport/open/auth_info/v2/',
  'GET',
);
/** The signed-in person's answer to an interaction; resolves where the browser goes next. */
export const decideOpenAuth = /* @__PURE__ */ openCall<OpenAuthDecisionPayload, OpenAuthDecision>(
  '/passport/open/web/auth/',
);
/** The apps the signed-in person has authorised (the account centre). */
export const listAuthorizedApps = /* @__PURE__ */ openCall<object, { apps: AuthorizedApp[] }>(
  '/passport/open/authorized_apps/',
  'GET',
);
/** Revokes one app for the signed-in person: its grants, codes and tokens, at once. */
export const revokeAuthorizedApp = /* @__PURE__ */ openCall<{ client_key: string }, object>(
  '/passport/open/update_authorize_info/',
);

/**
 * The authorization an access token carries (the person, the app, the scopes granted, the claims), the
 * token in the body. Answers the 'app' shape unless `response_format_type: 'oidc'` asks for userinfo's.
 */
export function getOpenAuthToken(
  client: AccountClient,
  payload: OpenAuthTokenPayload & { response_format_type: 'oidc' },
  options?: CallOptions,
): Promise<OpenAuthTokenClaims>;
export function getOpenAuthToken(
  client: AccountClient,
  payload: OpenAuthTokenPayload & { response_format_type?: 'app' },
  options?: CallOptions,
): Promise<OpenAuthTokenResult>;
export function getOpenAuthToken(
  client: AccountClient,
  payload: OpenAuthTokenPayload,
  options?: CallOptions,
) {
  const path: OpenPath = '/passport/open/auth/token/';
  return client.request({
    ...options,
    path,
    method: 'POST',
    data: { ...appFormat, ...payload },
    envelope: 'auth',
  });
}

/*
 * Signing in inside the authorization page, the open family's way: the same sign-ins as the web family's
 * (the same session, challenge and second verification), answered in the auth envelope.
 */

/** Sends an SMS code for the authorization page's sign-in (purpose 27, open auth, unless `type` says). */
export const sendOpenCode = /* @__PURE__ */ openCall<
  Omit<MobileCodePayload, 'type'> & Partial<Pick<MobileCodePayload, 'type'>>,
  SendCodeData
>('/passport/open/send_code/', 'POST', OPEN_AUTH_CODE);
/** Signs in (or up) by an SMS code of purpose 27 (or 26) on the authorization page. */
export const openSmsLogin = /* @__PURE__ */ openCall<SmsLoginPayload, AccountInfo>(
  '/passport/open/web/sms/',
  'POST',
  { ...OPEN_AUTH_CODE, need_frozen_user: 0 },
);
/** Signs in by password (and one of email, username, mobile or account) on the authorization page. */
export const openAccountLogin = /* @__PURE__ */ openCall<PasswordLoginPayload, AccountInfo>(
  '/passport/open/account/',
  'POST',
  frozen,
);
/**
 * Exchanges a third-party callback's code for a session. Like `auth/login` (not `login_only`), an
 * identity no account links signs a new person up.
 */
export const openThirdPartyLogin = /* @__PURE__ */ openCall<
  Omit<OAuthLoginPayload, 'login_only'>,
  AccountInfo
>('/passport/open/third_party/auth/', 'POST', frozen);
/** Gets a QR code for signing in on the authorization page from the signed-in app. */
export const getOpenQrcode = /* @__PURE__ */ openCall<NextPayload, QrcodeData>(
  '/passport/open/get_qrcode/',
  'GET',
  nextRoot,
);
/** Polls the authorization page's QR code by its token (read-only). */
export const checkOpenQrcode = /* @__PURE__ */ openCall<TokenPayload, QrStatusData>(
  '/passport/open/check_qrcode/',
  'GET',
);
