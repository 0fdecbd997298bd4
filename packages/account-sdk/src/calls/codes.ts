import type {
  EmailCheckPayload,
  EmailCodePayload,
  Extra,
  MobileCheckPayload,
  MobileCodePayload,
  RegisteredCheckData,
  SendCodeData,
  TicketData,
} from '../protocol/types';
import { defineCall } from './define-call';

/** Sends a one-time code by SMS for a purpose (`type`). */
export const sendMobileCode = /* @__PURE__ */ defineCall<MobileCodePayload, SendCodeData>(
  '/passport/web/send_code/',
  null,
  'POST',
  '/passport/sso/send_code/',
);
/** Sends a one-time code by e-mail for a purpose; the sso flavour sends the purpose as `ect_type`. */
export const sendEmailCode = /* @__PURE__ */ defineCall<EmailCodePayload, SendCodeData>(
  '/passport/web/email/send_code/',
  null,
  'POST',
  '/passport/sso/email/send_code/',
  'ect_type',
);
/** Validates an SMS code without using it up; resolves a ticket for the next step. */
export const validateCode = /* @__PURE__ */ defineCall<MobileCheckPayload, TicketData>(
  '/passport/web/validate_code/',
);
/** Verifies an e-mail code. */
export const verifyEmailCode = /* @__PURE__ */ defineCall<EmailCheckPayload, TicketData>(
  '/passport/web/email/verify/',
);
/** Checks an SMS code for its purpose. */
export const checkMobileCode = /* @__PURE__ */ defineCall<MobileCheckPayload, TicketData>(
  '/passport/web/mobile/check_code/',
);
/** Checks an e-mail code for its purpose. */
export const checkEmailCode = /* @__PURE__ */ defineCall<EmailCheckPayload, TicketData>(
  '/passport/web/email/check_code/',
);
/** Whether a mobile number has an account. */
export const checkMobileRegistered = /* @__PURE__ */ defineCall<
  { mobile: string } & Extra,
  RegisteredCheckData
>('/passport/web/user/check_mobile_registered/');
/** Whether an e-mail address has an account. */
export const checkEmailRegistered = /* @__PURE__ */ defineCall<
  { email: string } & Extra,
  RegisteredCheckData
>('/passport/web/user/check_email_registered/');
