import type {
  AccountInfo,
  BindMobilePayload,
  ChangeMobilePayload,
  Extra,
  IdentifierChangedData,
  MobileCheckPayload,
  MobileCodePayload,
  PasswordChangedData,
  ResetPasswordPayload,
  SendCodeData,
  SmsLoginPayload,
  TicketData,
} from '../protocol/types';
import { frozen, kick, rebind } from './defaults';
import { defineCall } from './define-call';

/** The mobile family (/passport/mobile): the same flows for app webviews. */
export const mobileSendCode = /* @__PURE__ */ defineCall<MobileCodePayload, SendCodeData>(
  '/passport/mobile/send_code/',
);
export const mobileSmsLogin = /* @__PURE__ */ defineCall<SmsLoginPayload, AccountInfo>(
  '/passport/mobile/sms_login/',
  frozen,
);
export const mobilePasswordLogin = /* @__PURE__ */ defineCall<{ password: string } & Extra, AccountInfo>(
  '/passport/mobile/login/',
  frozen,
);
export const mobileCheckCode = /* @__PURE__ */ defineCall<MobileCheckPayload, TicketData>(
  '/passport/mobile/check_code/',
);
export const mobileBind = /* @__PURE__ */ defineCall<BindMobilePayload, IdentifierChangedData>(
  '/passport/mobile/bind/',
  kick,
);
export const mobileChange = /* @__PURE__ */ defineCall<ChangeMobilePayload, IdentifierChangedData>(
  '/passport/mobile/change/',
  rebind,
);
export const mobileResetPassword = /* @__PURE__ */ defineCall<ResetPasswordPayload, PasswordChangedData>(
  '/passport/mobile/reset_password/',
);
