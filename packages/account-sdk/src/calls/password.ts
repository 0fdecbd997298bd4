import type {
  AccountInfo,
  ChangePasswordPayload,
  EmailResetAndLoginPayload,
  Extra,
  HasPasswordData,
  PasswordChangedData,
  PasswordPayload,
  ResetPasswordPayload,
  TicketPasswordPayload,
  UpdatePasswordPayload,
} from '../protocol/types';
import { defineCall } from './define-call';

/** Resets a forgotten password with a mobile number and SMS code. */
export const resetPassword = /* @__PURE__ */ defineCall<ResetPasswordPayload, PasswordChangedData>(
  '/passport/web/password/reset/',
);
/** Resets a forgotten password with an e-mail address and code. */
export const resetPasswordByEmail = /* @__PURE__ */ defineCall<ResetPasswordPayload, PasswordChangedData>(
  '/passport/web/email/password/reset/',
);
/** Resets a password with a ticket from a verified code. */
export const resetPasswordByTicket = /* @__PURE__ */ defineCall<TicketPasswordPayload, PasswordChangedData>(
  '/passport/web/password/reset_by_ticket/',
);
/** Resets a password with a ticket from a verified e-mail code. */
export const resetPasswordByEmailTicket = /* @__PURE__ */ defineCall<
  TicketPasswordPayload,
  PasswordChangedData
>('/passport/web/password/reset_by_email_ticket/');
/** Changes the password of the signed-in user with a code or ticket. */
export const changePassword = /* @__PURE__ */ defineCall<ChangePasswordPayload, PasswordChangedData>(
  '/passport/web/password/change/',
);
/** Changes the password of the signed-in user with an e-mail code or ticket. */
export const changePasswordByEmail = /* @__PURE__ */ defineCall<ChangePasswordPayload, PasswordChangedData>(
  '/passport/web/email/change_password/',
);
/** Changes the password, proving the current one. */
export const updatePassword = /* @__PURE__ */ defineCall<UpdatePasswordPayload, PasswordChangedData>(
  '/passport/web/password/update/',
);
/** Sets a first password for an account that has none. */
export const setPassword = /* @__PURE__ */ defineCall<PasswordPayload, PasswordChangedData>(
  '/passport/web/password/set/',
);
/** Whether the signed-in account has a password. */
export const hasSetPassword = /* @__PURE__ */ defineCall<Extra, HasPasswordData>(
  '/passport/web/password/has_set/',
  null,
  'GET',
);
/** Resets the password with an e-mail code and signs in. */
export const emailResetAndLogin = /* @__PURE__ */ defineCall<EmailResetAndLoginPayload, AccountInfo>(
  '/passport/web/email/password/reset_and_login/',
);
