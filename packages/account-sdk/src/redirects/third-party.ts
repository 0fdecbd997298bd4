import { DEFAULTS } from '../protocol/defaults';
import { passportPaths } from '../protocol/paths';
import { toFields } from '../transport/form';
import type { RedirectTarget, SubjectParams } from './urls';

export interface ThirdPartyLoginParams extends SubjectParams {
  /** The provider: `github`, `google` or `wechat` (the ones the passport has configured). */
  platform_app_id: string | number;
  /** Where to land after sign-in. Default '/'. */
  next?: string;
  use_local_host?: 0 | 1 | boolean;
  /** `login` (default), `bind` or `switch_bind`. */
  action?: string;
  /** Any other parameter for the provider's auth address. */
  [extra: string]: unknown;
}

/**
 * The third-party auth address: the passport keeps state, PKCE (and a nonce) for this browser and
 * redirects to the provider, which comes back to the app's `<provider>-oauth-callback` page.
 */
export const thirdPartyLoginUrl = (
  target: RedirectTarget,
  { next = DEFAULTS.next, ...params }: ThirdPartyLoginParams,
): string =>
  `${(target.baseUrl ?? '').replace(/\/+$/, '')}${passportPaths.authLogin}?${new URLSearchParams(
    toFields({ account_sdk_source: target.source ?? 'web', aid: target.aid, next, ...params }) as Record<
      string,
      string
    >,
  )}`;
