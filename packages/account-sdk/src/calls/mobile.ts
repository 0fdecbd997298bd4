import type {
  BindMobilePayload,
  ChangeMobilePayload,
  Extra,
  MobileCheckPayload,
  MobileCodePayload,
  ResetPasswordPayload,
  SmsLoginPayload,
} from '../protocol/types';
import { frozen, kick, rebind } from './defaults';
import { defineCall } from './define-call';

/** The mobile family (/passport/mobile): the same flows for app webviews. */
export const mobileSendCode = /* @__PURE__ */ defineCall<MobileCodePayload>('/passport/mobile/send_code/');
export const mobileSmsLogin = /* @__PURE__ */ defineCall<SmsLoginPayload>(
  '/passport/mobile/sms_login/',
  frozen,
);
export const mobilePasswordLogin = /* @__PURE__ */ defineCall<{ password: string } & Extra>(
  '/passport/mobile/login/',
  frozen,
);
export const mobileCheckCode = /* @__PURE__ */ defineCall<MobileCheckPayload>('/passport/mobile/check_code/');
export const mobileBind = /* @__PURE__ */ defineCall<BindMobilePayload>('/passport/mobile/bind/', kick);
export const mobileChange = /* @__PURE__ */ defineCall<ChangeMobilePayload>(
  '/passport/mobile/change/',
  rebind,
);
export const mobileResetPassword = /* @__PURE__ */ defineCall<ResetPasswordPayload>(
  '/passport/mobile/reset_password/',
);
