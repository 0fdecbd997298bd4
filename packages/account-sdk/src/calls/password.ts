import { webPaths } from '../protocol/paths';
import { defineCall } from './define-call';
import type {
  ChangePasswordPayload,
  EmailResetAndLoginPayload,
  Extra,
  PasswordPayload,
  ResetPasswordPayload,
  TicketPasswordPayload,
  UpdatePasswordPayload,
} from './payloads';

/** Resets a forgotten password with a mobile number and SMS code. */
export const resetPassword = /* @__PURE__ */ defineCall<ResetPasswordPayload>(webPaths, 'passwordReset');
/** Resets a forgotten password with an e-mail address and code. */
export const resetPasswordByEmail = /* @__PURE__ */ defineCall<ResetPasswordPayload>(
  webPaths,
  'emailPasswordReset',
);
/** Resets a password with a ticket from a verified code. */
export const resetPasswordByTicket = /* @__PURE__ */ defineCall<TicketPasswordPayload>(
  webPaths,
  'passwordResetByTicket',
);
/** Resets a password with a ticket from a verified e-mail code. */
export const resetPasswordByEmailTicket = /* @__PURE__ */ defineCall<TicketPasswordPayload>(
  webPaths,
  'passwordResetByEmailTicket',
);
/** Changes the password of the signed-in user with a code or ticket. */
export const changePassword = /* @__PURE__ */ defineCall<ChangePasswordPayload>(webPaths, 'passwordChange');
/** Changes the password of the signed-in user with an e-mail code or ticket. */
export const changePasswordByEmail = /* @__PURE__ */ defineCall<ChangePasswordPayload>(
  webPaths,
  'emailChangePassword',
);
/** Changes the password, proving the current one. */
export const updatePassword = /* @__PURE__ */ defineCall<UpdatePasswordPayload>(webPaths, 'passwordUpdate');
/** Sets a first password for an account that has none. */
export const setPassword = /* @__PURE__ */ defineCall<PasswordPayload>(webPaths, 'passwordSet');
/** Whether the signed-in account has a password. */
export const hasSetPassword = /* @__PURE__ */ defineCall<Extra>(webPaths, 'passwordHasSet', null, 'GET');
/** Resets the password with an e-mail code and signs in. */
export const emailResetAndLogin = /* @__PURE__ */ defineCall<EmailResetAndLoginPayload>(
  webPaths,
  'emailPasswordResetAndLogin',
);
