import type { AccountClient, CallOptions } from '../client/types';
import { USER_LOGIN_VERSION } from '../protocol/code-types';
import type {
  AccountInfo,
  AccountInfoPayload,
  CancelCheckData,
  CancelConfirmedData,
  CancelConfirmPayload,
  CancelRequestedData,
  CancelRequestPayload,
  CancelWaysData,
  Extra,
  MemberSwitchPayload,
  ReverifyPayload,
  SetAccountPayload,
  SwitchedAccountInfo,
  VerifiedData,
} from '../protocol/types';
import { defineCall } from './define-call';

/** The signed-in account; `need_plaintext: true` answers its own mobile and e-mail unmasked. */
export const accountInfo = /* @__PURE__ */ defineCall<AccountInfoPayload, AccountInfo>(
  '/passport/web/account/info/',
  null,
  'GET',
  '/passport/sso/account/info/',
);
/** The signed-in account, version 2 of the answer (`need_plaintext` as `accountInfo`). */
export const accountInfoV2 = /* @__PURE__ */ defineCall<AccountInfoPayload, AccountInfo>(
  '/passport/account/info/v2/',
  null,
  'GET',
);
/** Sets the username and password of an account that has none. */
export const setAccount = /* @__PURE__ */ defineCall<SetAccountPayload, AccountInfo>(
  '/passport/account/set/',
);
/** Verifies the signed-in account before a sensitive step. */
export const verifyAccount = /* @__PURE__ */ defineCall<Extra, VerifiedData>(
  '/passport/web/account/verify/',
  {
    user_login_version: USER_LOGIN_VERSION,
  },
);
/** Verifies a third-party binding before a sensitive step. */
export const verifyAuth = /* @__PURE__ */ defineCall<Extra, VerifiedData>('/passport/web/auth/verify/');
/**
 * Proves the signed-in person is who the account belongs to: by a code (type 22) to its own mobile or
 * e-mail, or a code of a factor it has (`{ method: 'totp' | 'recovery_code', code }`), through
 * `verifyAuth`; or by its password (`verifyAccount`). Renews the session's step-up (what
 * STEP_UP_REQUIRED, 2047, asks for) and answers a ticket for a change.
 */
export function reverify(
  client: AccountClient,
  proof: ReverifyPayload,
  options?: CallOptions,
): Promise<VerifiedData> {
  return 'password' in proof ? verifyAccount(client, proof, options) : verifyAuth(client, proof, options);
}
/** Authorises by SMS code. */
export const smsAuthorize = /* @__PURE__ */ defineCall<Extra, AccountInfo>('/passport/web/sms/authorize/');
/** Account cancellation, step one: the ways the user can verify. */
export const cancelVerifyWay = /* @__PURE__ */ defineCall<Extra, CancelWaysData>(
  '/passport/auth/cancel_verify_way/',
  null,
  'GET',
);
/** Account cancellation: whether the account can be cancelled. */
export const cancelCheck = /* @__PURE__ */ defineCall<Extra, CancelCheckData>(
  '/passport/web/cancel/check/',
  null,
  'GET',
);
/** Account cancellation: confirm (or `abandon: 1` to withdraw). */
export const cancelConfirm = /* @__PURE__ */ defineCall<CancelConfirmPayload, CancelConfirmedData>(
  '/passport/web/cancel/confirm/',
);
/**
 * Account cancellation: prove ownership by one of the verify ways. `send: 1` sends a code to the
 * account's own mobile or e-mail; then the code (or the password) answers a `cancel_ticket`.
 */
export const cancelRequest = /* @__PURE__ */ defineCall<CancelRequestPayload, CancelRequestedData>(
  '/passport/cancel/request/',
);

/** Switches to another member identity of the signed-in user. */
export const switchMember = /* @__PURE__ */ defineCall<MemberSwitchPayload, SwitchedAccountInfo>(
  '/passport/member/switch/',
);
