import { AccountError } from '../errors/account-error';
import type {
  AccountInfo,
  CheckLoginData,
  EmailCodeLoginPayload,
  EmailPasswordLoginPayload,
  Extra,
  LogoutData,
  LogoutPayload,
  PasswordLoginPayload,
  QrLoginData,
  SmsLoginContinuePayload,
  SmsLoginPayload,
  TokenPayload,
} from '../protocol/types';
import { frozen, logoutByRequest } from './defaults';
import { type Call, defineCall } from './define-call';

/** Signs in (or up) with a mobile number and an SMS code. */
export const smsLogin = /* @__PURE__ */ defineCall<SmsLoginPayload, AccountInfo>(
  '/passport/web/sms_login/',
  frozen,
  'POST',
  '/passport/sso/sms_login/',
);
/** Signs in with an SMS code; never creates an account. */
export const smsLoginOnly = /* @__PURE__ */ defineCall<SmsLoginPayload, AccountInfo>(
  '/passport/web/sms_login_only/',
  frozen,
);
/** Completes a sign-in that failed with 2046 (second verification), with its `sms_code_key`. */
export const smsLoginContinue = /* @__PURE__ */ defineCall<SmsLoginContinuePayload, AccountInfo>(
  '/passport/web/sms_login_continue/',
);
/** Signs in with an e-mail address and a one-time code. */
export const emailCodeLogin = /* @__PURE__ */ defineCall<EmailCodeLoginPayload, AccountInfo>(
  '/passport/web/email/code_login/',
  frozen,
  'POST',
  '/passport/sso/email/code_login/',
);
/** Signs in with an e-mail address and password. */
export const emailLogin = /* @__PURE__ */ defineCall<EmailPasswordLoginPayload, AccountInfo>(
  '/passport/web/email/login/',
  frozen,
);
/** Registers or signs in with an e-mail code (and a password for a new account). */
export const emailRegisterVerifyLogin = /* @__PURE__ */ defineCall<
  EmailCodeLoginPayload & { password?: string },
  AccountInfo
>('/passport/web/email/register_verify_login/', frozen);

const userLogin = /* @__PURE__ */ defineCall<PasswordLoginPayload, AccountInfo>(
  '/passport/web/user/login/',
  frozen,
  'POST',
  '/passport/sso/user/login/',
);

/**
 * Signs in with a password and one of email, username, mobile or account. Without any identifier it
 * rejects at once, without a request, with an `invalid` AccountError whose description is empty.
 */
export const passwordLogin: Call<PasswordLoginPayload, AccountInfo> = (client, ...args) => {
  const payload: Partial<PasswordLoginPayload> = args[0] ?? {};
  return payload.email || payload.username || payload.mobile || payload.account
    ? userLogin(client, ...args)
    : Promise.reject(
        new AccountError(
          'invalid',
          { error_code: -1, description: '' },
          { message: 'passwordLogin needs one of email, username, mobile or account' },
        ),
      );
};

/**
 * Signs this browser in with a ticket from another surface: the token of a QR code this browser created
 * and a phone confirmed (docs/qr-login.md). Of concurrent redemptions exactly one gets the session.
 */
export const webLogin = /* @__PURE__ */ defineCall<TokenPayload, QrLoginData>('/passport/web/web_login/');
/** Whether the browser has a session. */
export const checkLogin = /* @__PURE__ */ defineCall<Extra, CheckLoginData>(
  '/check_login/',
  null,
  'GET',
  '/passport/sso/check_login/',
);
/** Ends the session without navigating (`not_redirect: 1` by default; see `logoutUrl` for the redirect). */
export const logout = /* @__PURE__ */ defineCall<LogoutPayload, LogoutData>(
  '/passport/web/logout/',
  logoutByRequest,
  'GET',
  '/passport/sso/logout/',
);
