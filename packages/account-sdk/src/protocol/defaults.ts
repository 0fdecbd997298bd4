/** The spec's defaults and limits (§3, §5, §9), in one place for the SDK, the apps and the server. */

import {
  DEFAULT_DID,
  DEFAULT_IID,
  DEFAULT_LANGUAGE,
  DEFAULT_REGION,
  FINGERPRINT_WAIT,
  REQUEST_TIMEOUT,
} from './client-defaults';

/** The account SDK's protocol version, sent as `sdk_version`. */
export const SDK_VERSION = '2.0.0';

export type Region = 'sg' | 'va';
export const REGIONS: readonly Region[] = ['sg', 'va'];
export type AccountSource = 'web' | 'app' | 'sso';
export type CaptchaShowMode = 'mask' | 'popup' | 'embed';

/**
 * What a client assumes for an option left out (`DEFAULTS` spreads it in). The client reads the values
 * from `client-defaults.ts`, so that a page creating a client carries four strings and no table.
 */
export const CLIENT_DEFAULTS = {
  did: DEFAULT_DID,
  iid: DEFAULT_IID,
  region: DEFAULT_REGION as Region,
  language: DEFAULT_LANGUAGE,
} as const;

export const DEFAULTS = {
  ...CLIENT_DEFAULTS,
  captchaShowMode: 'mask' as CaptchaShowMode,
  captchaSideSlide: false,
  page: 1,
  pageSize: 10,
  needFrozenUser: 0,
  isFrozen: 0,
  unbindExist: 0,
  kickOther: 0,
  changeBind: 0,
  // The spec's `invite_id 0` is not kept: every call that takes invite_id needs a real one
  // (docs/protocol.md, "Defaults").
  /** GET redirects answer 302 (1); 0 answers `{redirect_url}` instead. */
  needRedirect: 1,
  next: '/',
  /** account/info masks the account's own mobile and e-mail unless asked. */
  needPlaintext: false,
  /** The shape of open/auth/token's answer. */
  responseFormatType: 'app',
  scene: 'normal',
  scopes: 'user_info',
  userIdentityId: '0',
  /** OAuth login defaults to the login-only variant. */
  oauthLoginOnly: true,
  responseType: 'code',
} as const;

/** Timeouts and retries, in milliseconds unless named otherwise (spec §9). */
export const TIMEOUTS = {
  request: REQUEST_TIMEOUT,
  captchaScriptLoad: 4000,
  scriptFetch: 20000,
  fingerprintWait: FINGERPRINT_WAIT,
  /** The challenge settings fetch is retried once. */
  settingsRetries: 1,
} as const;

/** The open-auth state cookie lives 60 days. */
export const OPEN_AUTH_STATE_MAX_AGE_SECONDS = 5_184_000;

/** Fetch-helper (TanStack Query) defaults from the spec. */
export const QUERY_DEFAULTS = {
  cacheTime: 300_000,
  focusRefreshInterval: 5000,
  retryBaseDelay: 1000,
  retryMaxDelay: 30_000,
} as const;

/** Layout breakpoints in px. */
export const BREAKPOINTS = { xs: 0, sm: 576, md: 768, lg: 992, xl: 1200 } as const;

/** Cookie and header names both sides agree on. */
export const CSRF_COOKIE = 'passport_csrf_token';
export const CSRF_HEADER = 'x-tt-passport-csrf-token';
export const LOG_ID_HEADER = 'x-tt-logid';
export const SESSION_COOKIE = 'sessionid';
export const WEB_ID_COOKIE = 's_v_web_id';
/** The person's language choice (zh or en), written by the apps' pages and read by the server's pages. */
export const LANGUAGE_COOKIE = 'portico.language';
/** Query parameter carrying the optional request signature produced by the client's signer. */
export const SIGNATURE_PARAM = '_signature';
