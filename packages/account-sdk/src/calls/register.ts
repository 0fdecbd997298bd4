import { EmailCodeType } from '../protocol/code-types';
import { passportPaths, webPaths } from '../protocol/paths';
import { defineCall } from './define-call';
import type {
  Extra,
  RegisterByEmailPayload,
  RegisterByMobilePayload,
  RegisterWithoutVerifyPayload,
} from './payloads';

/** Verifies an e-mail register code (type 1); resolves the `verify_ticket` for registering. */
export const verifyEmailRegisterCode = /* @__PURE__ */ defineCall<
  { email: string; code: string; type?: number } & Extra
>(webPaths, 'emailRegisterVerify', { type: EmailCodeType.register });
/** Registers with an e-mail address and the `verify_ticket` of a verified code. */
export const registerByEmail = /* @__PURE__ */ defineCall<RegisterByEmailPayload>(
  webPaths,
  'emailRegisterV2',
);
/** Registers with a mobile number and the `verify_ticket` of a verified code. */
export const registerByMobile = /* @__PURE__ */ defineCall<RegisterByMobilePayload>(
  passportPaths,
  'mobileRegister',
);
/** Registers only the user (no sign-in), by mobile or e-mail, with a `verify_ticket`. */
export const registerOnlyUser = /* @__PURE__ */ defineCall<
  Partial<RegisterByEmailPayload & RegisterByMobilePayload>
>(passportPaths, 'mobileEmailRegister');
/** Registers by e-mail without a code, guarded by a recaptcha token; `next_url` is where to go after. */
export const registerWithoutVerify = /* @__PURE__ */ defineCall<RegisterWithoutVerifyPayload>(
  webPaths,
  'emailRegister',
);
