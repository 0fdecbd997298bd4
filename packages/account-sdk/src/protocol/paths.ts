/**
 * Every path the account client and the passport server share, by family (spec §7). Each family is
 * written once as its path names; the keys are their camelCase (`email/send_code` → `emailSendCode`),
 * at run time and in the types, so `paths.web.emailSendCode` is typed `'/passport/web/email/send_code/'`.
 * Passport paths end with '/', as the legacy root paths do; the app API names do not.
 */

/** `email/send_code` → `emailSendCode`, `register/v2` → `registerV2`. */
export type PathKey<S extends string> = S extends `${infer A}/${infer B}`
  ? `${PathKey<A>}${Capitalize<PathKey<B>>}`
  : S extends `${infer A}_${infer B}`
    ? `${A}${Capitalize<PathKey<B>>}`
    : S;

type Family<P extends string, N extends string, E extends string> = {
  readonly [K in N as PathKey<K>]: `${P}${K}${E}`;
};

/** The run-time twin of `PathKey`: split on '/' and '_', capitalise every part after the first. */
export function pathKey(name: string): string {
  return name
    .split(/[/_]/)
    .map((part, i) => (i === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('');
}

function family<const P extends string, const N extends string, const E extends string = '/'>(
  prefix: P,
  names: readonly N[],
  end: E = '/' as E,
): Family<P, N, E> {
  const out: Record<string, string> = {};
  for (const name of names) out[pathKey(name)] = prefix + name + end;
  return out as Family<P, N, E>;
}

/** Web passport family, under /passport/web. */
export const webPaths = /* @__PURE__ */ family('/passport/web/', [
  'send_code',
  'email/send_code',
  'validate_code',
  'email/verify',
  'mobile/check_code',
  'email/check_code',
  'sms_login',
  'sms_login_only',
  'sms_login_continue',
  'email/login',
  'email/code_login',
  'email/register_verify_login',
  'email/register_verify',
  'user/login',
  'auth/login',
  'auth/login_only',
  'auth/bind_login',
  'mobile/bind_login',
  'logout',
  'get_qrcode',
  'check_qrconnect',
  'scan_qrcode',
  'confirm_qrcode',
  'web_login',
  'auth/share_login',
  'email/register',
  'email/register/v2',
  'mobile/bind',
  'email/bind',
  'auth/bind',
  'auth/unbind',
  'auth/switch_bind',
  'mobile/change',
  'email/change',
  'password/reset',
  'email/password/reset',
  'password/reset_by_ticket',
  'password/reset_by_email_ticket',
  'password/change',
  'password/update',
  'email/change_password',
  'password/set',
  'password/has_set',
  'email/password/reset_and_login',
  'account/verify',
  'auth/verify',
  'sms/authorize',
  'cancel/check',
  'cancel/confirm',
  'user/check_mobile_registered',
  'user/check_email_registered',
  'account/info',
  'device/list',
  'device/forget',
  /** Authenticator apps and recovery codes (docs/factors.md). */
  'factor/list',
  'totp/start',
  'totp/confirm',
  'totp/remove',
  'recovery_code/generate',
  /** The signed-in person's own security activity (Portico's: the spec names none). */
  'account/activity',
  /** Recent changes to the account's sign-in methods, and "this wasn't me" on one (Portico's). */
  'account/sign_in_changes',
  'account/sign_in_changes/disown',
  /** Every organisation's and person's audit entries, for operators (OPERATOR_USER_IDS). */
  'operator/audit',
  'operator/api_keys/create',
  'operator/api_keys/list',
  'operator/api_keys/revoke',
  'operator/api_keys/rotate',
]);

/** Other passport paths (spec §7), under /passport. */
export const passportPaths = /* @__PURE__ */ family('/passport/', [
  'mobile_email_register',
  'mobile/register',
  'auth/show_oauth_mobile',
  'account/info/v2',
  'auth/cancel_verify_way',
  'cancel/request',
  'account/set',
  'member/switch',
  /** The two-step QR verify: scan, then confirm by ticket. */
  'qrcode/scan_qrcode',
  'qrcode/confirm_by_ticket',
  /** Browser redirect targets (never fetched). */
  'auth/login',
  'auth/wap_login',
  'auth/login_success',
]);

/**
 * Portico's own third-party path (the spec names none): the configured providers and the signed-in
 * account's linked identities. Outside `paths`, so only the pages that call it carry it.
 */
export const thirdPartyPaths = /* @__PURE__ */ family('/passport/auth/', ['providers']);

/**
 * Portico's passkey paths (the spec names none; docs/factors.md): registering one from a signed-in
 * session, signing in with one, and the account's list. Outside `paths`, so only the pages that call
 * them carry them.
 */
export const passkeyPaths = /* @__PURE__ */ family('/passport/passkey/', [
  'register/options',
  'register/verify',
  'login/options',
  'login/verify',
  'factor/options',
  'list',
  'rename',
  'remove',
]);

/**
 * Portico's enterprise single sign-on paths (the spec names none; docs/enterprise-sso.md): start the
 * sign-in of a work e-mail at its organisation's identity provider, and finish it from the callback
 * page. Outside `paths`, so only the pages that call them carry them.
 */
export const enterpriseSsoPaths = /* @__PURE__ */ family('/passport/enterprise_sso/', [
  'start',
  'login',
  'saml_acs',
  'saml_metadata',
]);

/** The mobile family, under /passport/mobile. */
export const mobilePaths = /* @__PURE__ */ family('/passport/mobile/', [
  'send_code',
  'sms_login',
  'login',
  'check_code',
  'bind',
  'change',
  'reset_password',
]);

/** Legacy root paths; the server answers them for the same flows. */
export const legacyPaths = /* @__PURE__ */ family('/', [
  'send_activation_code',
  'quick_login',
  'account_login',
  'check_login',
  'logout',
  'get_qrcode',
  'check_qrconnect',
  'reset_password',
  'bind_mobile',
  'change_mobile',
]);

/** The sso flavour (sso envelope: error_code 0 is success). */
export const ssoPaths = /* @__PURE__ */ family('/passport/sso/', [
  'send_code',
  'email/send_code',
  'sms_login',
  'email/code_login',
  'user/login',
  'check_login',
  'logout',
  'account/info',
  'get_qrcode',
  'check_qrconnect',
  /** Called by a service's back end, not the SDK: a ticket from /sso/login for the signed-in user. */
  'service_validate',
]);

/** Open authorization for third-party apps (auth envelope: status_code 0 is success). */
export const openPaths = /* @__PURE__ */ family('/passport/open/', [
  'auth_info/v2',
  'send_code',
  'web/sms',
  'account',
  'third_party/auth',
  'web/auth',
  'get_qrcode',
  'check_qrcode',
  'oauth/token',
  'auth/token',
  'update_authorize_info',
  'connect',
  /** Starts again the connect request this browser last followed (the 60-day open-auth state cookie). */
  'connect/resume',
  /** The apps the signed-in person has authorised (the account centre). */
  'authorized_apps',
]);

/** User profile paths; `{aid}` is replaced with the app id. */
export const profilePaths = /* @__PURE__ */ family('/web/user/', [
  'get/oauth_profile',
  'update/upload_avatar',
  'update/user_info',
  'update/language',
  'check/default_info',
  'settings/{aid}/default_background_image_list',
  'settings/{aid}/default_avatar_list',
  'settings/recommend_name',
  'upload/pic',
  'get/remain_update_times',
  'review/pic',
  'review/pending',
  /** Everything the account holds, as JSON (kept before a cancellation, issue 17). */
  'get/user_data',
]);
export const downloadPaths = /* @__PURE__ */ family('/user/web/download/', ['image', 'image/v2']);

/** The challenge service: settings, puzzles and the script from a primary and a backup path. */
export const vcPaths = /* @__PURE__ */ family(
  '/vc/',
  ['setting', 'challenge', 'verify', 'sdk/primary', 'sdk/backup'],
  '',
);

/** Web-id and monitoring endpoints. */
export const monitorPaths = /* @__PURE__ */ family('/', ['web_id', 'monitor/event_list', 'monitor/batch']);

/** The app API named in the error-reporting configuration. */
export const appPaths = /* @__PURE__ */ family(
  '/',
  ['CheckLogin', 'Logout', 'GetUserToken', 'GetUserInfo', 'CheckWaitListEnable', 'SubmitWaitList', 'Login'],
  '',
);

/** The organisation family's prefix; its paths arrive with affiliate-sdk. */
export const AFFILIATE_PREFIX = '/passport/aff/web/';

/** All families in one object: `paths.web.sendCode`, `paths.app.CheckLogin`, … */
export const paths = {
  web: webPaths,
  passport: passportPaths,
  mobile: mobilePaths,
  legacy: legacyPaths,
  sso: ssoPaths,
  open: openPaths,
  profile: profilePaths,
  download: downloadPaths,
  vc: vcPaths,
  monitor: monitorPaths,
  app: appPaths,
} as const;

export type PathFamily = keyof typeof paths;
