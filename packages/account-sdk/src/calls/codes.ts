import { ssoPaths, webPaths } from '../protocol/paths';
import { defineCall } from './define-call';
import type {
  EmailCheckPayload,
  EmailCodePayload,
  Extra,
  MobileCheckPayload,
  MobileCodePayload,
} from './payloads';

/** Sends a one-time code by SMS for a purpose (`type`). */
export const sendMobileCode = /* @__PURE__ */ defineCall<MobileCodePayload>(
  webPaths,
  'sendCode',
  null,
  'POST',
  ssoPaths,
);
/** Sends a one-time code by e-mail for a purpose; the sso flavour sends the purpose as `ect_type`. */
export const sendEmailCode = /* @__PURE__ */ defineCall<EmailCodePayload>(
  webPaths,
  'emailSendCode',
  null,
  'POST',
  ssoPaths,
  'ect_type',
);
/** Validates an SMS code without using it up; resolves a ticket for the next step. */
export const validateCode = /* @__PURE__ */ defineCall<MobileCheckPayload>(webPaths, 'validateCode');
/** Verifies an e-mail code. */
export const verifyEmailCode = /* @__PURE__ */ defineCall<EmailCheckPayload>(webPaths, 'emailVerify');
/** Checks an SMS code for its purpose. */
export const checkMobileCode = /* @__PURE__ */ defineCall<MobileCheckPayload>(webPaths, 'mobileCheckCode');
/** Checks an e-mail code for its purpose. */
export const checkEmailCode = /* @__PURE__ */ defineCall<EmailCheckPayload>(webPaths, 'emailCheckCode');
/** Whether a mobile number has an account. */
export const checkMobileRegistered = /* @__PURE__ */ defineCall<{ mobile: string } & Extra>(
  webPaths,
  'userCheckMobileRegistered',
);
/** Whether an e-mail address has an account. */
export const checkEmailRegistered = /* @__PURE__ */ defineCall<{ email: string } & Extra>(
  webPaths,
  'userCheckEmailRegistered',
);
