import type { AccountSource } from '../protocol/defaults';
import { DEFAULTS, SDK_VERSION } from '../protocol/defaults';
import { openPaths, passportPaths, webPaths } from '../protocol/paths';
import { toFields } from '../transport/form';

/** Who the redirect is for; an `AccountClient` is one. */
export interface RedirectTarget {
  aid: string | number;
  /** Default 'web'. */
  source?: AccountSource;
  /** Default: the page's own origin (the URL is root-relative). */
  baseUrl?: string | undefined;
}

/** Organisation mode: the organisation the redirect acts for. */
export interface SubjectParams {
  /**
   * The organisation's `sec_subject_uid`. On logout only its identity is left (the person stays signed
   * in); on a third-party sign-in the person lands in their identity there, or is refused when not a
   * member. Default: none (a logout signs out; a sign-in lands in the personal identity).
   */
  subject_aid?: string | number;
}

function url(target: RedirectTarget, path: string, params: Record<string, unknown>): string {
  return `${(target.baseUrl ?? '').replace(/\/+$/, '')}${path}?${new URLSearchParams(toFields(params) as Record<string, string>)}`;
}

const common = (target: RedirectTarget) => ({ account_sdk_source: target.source ?? 'web', aid: target.aid });

export interface LogoutUrlParams extends SubjectParams {
  /** Where to land after logout. Default '/'. */
  next?: string;
}

/** The logout address: ends the session and redirects to `next`. */
export const logoutUrl = (
  target: RedirectTarget,
  { next = DEFAULTS.next, subject_aid }: LogoutUrlParams = {},
): string =>
  url(target, webPaths.logout, { ...common(target), next, passport_jssdk_version: SDK_VERSION, subject_aid });

// The third-party login address is a module of its own (an app's bundler leaves it to the pages that use it).
export { type ThirdPartyLoginParams, thirdPartyLoginUrl } from './third-party';

/** The login-success page the wap login returns to; it forwards to `service`. */
export const loginSuccessUrl = (target: RedirectTarget, service: string): string =>
  url(target, passportPaths.authLoginSuccess, { service });

export interface WapLoginParams {
  /** Where the login-success page forwards to after sign-in. */
  service: string;
  platform_app_id?: string | number;
  [extra: string]: unknown;
}

/** The platform auth-login address for wap login; its `next` is the login-success page for `service`. */
export const wapLoginUrl = (target: RedirectTarget, { service, ...params }: WapLoginParams): string =>
  url(target, passportPaths.authWapLogin, {
    ...common(target),
    ...params,
    next: loginSuccessUrl(target, service),
  });

export interface OpenConnectParams {
  client_key: string;
  /** Comma-separated scopes the app requires. */
  scope: string;
  /** Scopes the user may decline. */
  optionalScope?: string;
  state?: string;
  /** Default 'code'. */
  response_type?: string;
  redirect_uri: string;
}

/** The open-platform connect page where a user grants a third-party app access. */
export const openConnectUrl = (
  target: Pick<RedirectTarget, 'baseUrl'>,
  { response_type = DEFAULTS.responseType, ...params }: OpenConnectParams,
): string => url(target as RedirectTarget, openPaths.connect, { ...params, response_type });

/**
 * Starts again the connect request this browser last followed (kept 60 days in the open-auth state
 * cookie): for an authorization page whose interaction expired (`resumable` in the failure's data).
 */
export const openConnectResumeUrl = (target: Pick<RedirectTarget, 'baseUrl'>): string =>
  `${(target.baseUrl ?? '').replace(/\/+$/, '')}${openPaths.connectResume}`;
