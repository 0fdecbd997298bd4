import { USER_LOGIN_VERSION } from '../protocol/code-types';
import { passportPaths, ssoPaths, webPaths } from '../protocol/paths';
import { defineCall } from './define-call';
import type { CancelConfirmPayload, Extra, MemberSwitchPayload, SetAccountPayload } from './payloads';

/** The signed-in account. */
export const accountInfo = /* @__PURE__ */ defineCall<Extra>(webPaths, 'accountInfo', null, 'GET', ssoPaths);
/** The signed-in account, version 2 of the answer. */
export const accountInfoV2 = /* @__PURE__ */ defineCall<Extra>(passportPaths, 'accountInfoV2', null, 'GET');
/** Sets the username and password of an account that has none. */
export const setAccount = /* @__PURE__ */ defineCall<SetAccountPayload>(passportPaths, 'accountSet');
/** Verifies the signed-in account before a sensitive step. */
export const verifyAccount = /* @__PURE__ */ defineCall<Extra>(webPaths, 'accountVerify', {
  user_login_version: USER_LOGIN_VERSION,
});
/** Verifies a third-party binding before a sensitive step. */
export const verifyAuth = /* @__PURE__ */ defineCall<Extra>(webPaths, 'authVerify');
/** Authorises by SMS code. */
export const smsAuthorize = /* @__PURE__ */ defineCall<Extra>(webPaths, 'smsAuthorize');
/** The mobile number bound to a third-party account, for display. */
export const showOauthMobile = /* @__PURE__ */ defineCall<Extra>(
  passportPaths,
  'authShowOauthMobile',
  null,
  'GET',
);
/** Account cancellation, step one: the ways the user can verify. */
export const cancelVerifyWay = /* @__PURE__ */ defineCall<Extra>(
  passportPaths,
  'authCancelVerifyWay',
  null,
  'GET',
);
/** Account cancellation: whether the account can be cancelled. */
export const cancelCheck = /* @__PURE__ */ defineCall<Extra>(webPaths, 'cancelCheck', null, 'GET');
/** Account cancellation: confirm (or `abandon: 1` to withdraw). */
export const cancelConfirm = /* @__PURE__ */ defineCall<CancelConfirmPayload>(webPaths, 'cancelConfirm');
/** Account cancellation: request it. */
export const cancelRequest = /* @__PURE__ */ defineCall<Extra>(passportPaths, 'cancelRequest');
/** Switches to another member identity of the signed-in user. */
export const switchMember = /* @__PURE__ */ defineCall<MemberSwitchPayload>(passportPaths, 'memberSwitch');
