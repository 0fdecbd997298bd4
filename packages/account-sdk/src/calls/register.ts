import type {
  Extra,
  RegisterByEmailPayload,
  RegisterByMobilePayload,
  RegisteredData,
  RegisterLinkSentData,
  RegisterWithoutVerifyPayload,
  TicketData,
} from '../protocol/types';
import { emailRegisterType } from './defaults';
import { defineCall } from './define-call';

/** Verifies an e-mail register code (type 1); resolves the `verify_ticket` for registering. */
export const verifyEmailRegisterCode = /* @__PURE__ */ defineCall<
  { email: string; code: string; type?: number } & Extra,
  TicketData
>('/passport/web/email/register_verify/', emailRegisterType);
/** Registers with an e-mail address and the `verify_ticket` of a verified code. */
export const registerByEmail = /* @__PURE__ */ defineCall<RegisterByEmailPayload, RegisteredData>(
  '/passport/web/email/register/v2/',
);
/** Registers with a mobile number and the `verify_ticket` of a verified code. */
export const registerByMobile = /* @__PURE__ */ defineCall<RegisterByMobilePayload, RegisteredData>(
  '/passport/mobile/register/',
);
/** Registers only the user (no sign-in), by mobile or e-mail, with a `verify_ticket`. */
export const registerOnlyUser = /* @__PURE__ */ defineCall<
  Partial<RegisterByEmailPayload & RegisterByMobilePayload>,
  RegisteredData
>('/passport/mobile_email_register/');
/**
 * Registers by e-mail without a code, behind a human check (`recaptcha_token`): the server e-mails a
 * link that makes the account and signs in, then goes to `next_url`.
 */
export const registerWithoutVerify = /* @__PURE__ */ defineCall<
  RegisterWithoutVerifyPayload,
  RegisterLinkSentData
>('/passport/web/email/register/');
