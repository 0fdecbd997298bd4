import { DEFAULTS } from '../protocol/defaults';
import { mobilePaths } from '../protocol/paths';
import { frozen, rebind } from './defaults';
import { defineCall } from './define-call';
import type {
  BindMobilePayload,
  ChangeMobilePayload,
  Extra,
  MobileCheckPayload,
  MobileCodePayload,
  ResetPasswordPayload,
  SmsLoginPayload,
} from './payloads';

/** The mobile family (/passport/mobile): the same flows for app webviews. */
export const mobileSendCode = /* @__PURE__ */ defineCall<MobileCodePayload>(mobilePaths, 'sendCode');
export const mobileSmsLogin = /* @__PURE__ */ defineCall<SmsLoginPayload>(mobilePaths, 'smsLogin', frozen);
export const mobilePasswordLogin = /* @__PURE__ */ defineCall<{ password: string } & Extra>(
  mobilePaths,
  'login',
  frozen,
);
export const mobileCheckCode = /* @__PURE__ */ defineCall<MobileCheckPayload>(mobilePaths, 'checkCode');
export const mobileBind = /* @__PURE__ */ defineCall<BindMobilePayload>(mobilePaths, 'bind', {
  kick_other: DEFAULTS.kickOther,
});
export const mobileChange = /* @__PURE__ */ defineCall<ChangeMobilePayload>(mobilePaths, 'change', rebind);
export const mobileResetPassword = /* @__PURE__ */ defineCall<ResetPasswordPayload>(
  mobilePaths,
  'resetPassword',
);
