import { DEFAULTS } from '../protocol/defaults';
import { legacyPaths } from '../protocol/paths';
import { frozen, logoutByRequest, nextRoot, rebind } from './defaults';
import { defineCall } from './define-call';
import type {
  BindMobilePayload,
  ChangeMobilePayload,
  Extra,
  LogoutPayload,
  MobileCodePayload,
  NextPayload,
  ResetPasswordPayload,
  SmsLoginPayload,
  TokenPayload,
} from './payloads';

/** Legacy root paths: the same flows, for servers that still answer them. */
export const legacySendActivationCode = /* @__PURE__ */ defineCall<MobileCodePayload>(
  legacyPaths,
  'sendActivationCode',
);
export const quickLogin = /* @__PURE__ */ defineCall<SmsLoginPayload>(legacyPaths, 'quickLogin', frozen);
export const legacyAccountLogin = /* @__PURE__ */ defineCall<{ password: string } & Extra>(
  legacyPaths,
  'accountLogin',
  frozen,
);
export const legacyLogout = /* @__PURE__ */ defineCall<LogoutPayload>(
  legacyPaths,
  'logout',
  logoutByRequest,
  'GET',
);
export const legacyGetQrcode = /* @__PURE__ */ defineCall<NextPayload>(
  legacyPaths,
  'getQrcode',
  nextRoot,
  'GET',
);
export const legacyCheckQrcode = /* @__PURE__ */ defineCall<TokenPayload>(
  legacyPaths,
  'checkQrconnect',
  null,
  'GET',
);
export const legacyResetPassword = /* @__PURE__ */ defineCall<ResetPasswordPayload>(
  legacyPaths,
  'resetPassword',
);
export const legacyBindMobile = /* @__PURE__ */ defineCall<BindMobilePayload>(legacyPaths, 'bindMobile', {
  kick_other: DEFAULTS.kickOther,
});
export const legacyChangeMobile = /* @__PURE__ */ defineCall<ChangeMobilePayload>(
  legacyPaths,
  'changeMobile',
  rebind,
);
