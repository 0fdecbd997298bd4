import type {
  EnterpriseSsoLoginPayload,
  EnterpriseSsoSignedIn,
  EnterpriseSsoStartData,
  EnterpriseSsoStartPayload,
} from '../protocol/types';
import { defineCall } from './define-call';

/**
 * Enterprise single sign-on (docs/enterprise-sso.md): sign in with a work e-mail at the identity
 * provider of the organisation that verified its domain. A module of its own, so only the pages that
 * use it carry it.
 */

/**
 * Starts the sign-in of a work e-mail: answers the provider's address to send the browser to, or
 * SSO_NOT_AVAILABLE when no organisation signs that domain in. The provider sends the browser back to
 * `{PUBLIC_ORIGIN}/enterprise-sso-callback`.
 */
export const startEnterpriseSso = /* @__PURE__ */ defineCall<
  EnterpriseSsoStartPayload,
  EnterpriseSsoStartData
>('/passport/enterprise_sso/start/');
/**
 * Finishes it from the callback page (`code`, `state`, `iss` of its query), in the browser that
 * started: signs in to the organisation's identity and answers the account and the `next` it began with.
 */
export const finishEnterpriseSso = /* @__PURE__ */ defineCall<
  EnterpriseSsoLoginPayload,
  EnterpriseSsoSignedIn
>('/passport/enterprise_sso/login/');
