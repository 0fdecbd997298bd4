import type {
  BindMobilePayload,
  ChangeMobilePayload,
  Extra,
  LogoutPayload,
  MobileCodePayload,
  NextPayload,
  QrcodeData,
  QrStatusData,
  ResetPasswordPayload,
  SmsLoginPayload,
  TokenPayload,
} from '../protocol/types';
import { frozen, kick, logoutByRequest, nextRoot, rebind } from './defaults';
import { defineCall } from './define-call';

/** Legacy root paths: the same flows, for servers that still answer them. */
export const legacySendActivationCode =
  /* @__PURE__ */ defineCall<MobileCodePayload>('/send_activation_code/');
export const quickLogin = /* @__PURE__ */ defineCall<SmsLoginPayload>('/quick_login/', frozen);
export const legacyAccountLogin = /* @__PURE__ */ defineCall<{ password: string } & Extra>(
  '/account_login/',
  frozen,
);
export const legacyLogout = /* @__PURE__ */ defineCall<LogoutPayload>('/logout/', logoutByRequest, 'GET');
export const legacyGetQrcode = /* @__PURE__ */ defineCall<NextPayload, QrcodeData>(
  '/get_qrcode/',
  nextRoot,
  'GET',
);
export const legacyCheckQrcode = /* @__PURE__ */ defineCall<TokenPayload, QrStatusData>(
  '/check_qrconnect/',
  null,
  'GET',
);
export const legacyResetPassword = /* @__PURE__ */ defineCall<ResetPasswordPayload>('/reset_password/');
export const legacyBindMobile = /* @__PURE__ */ defineCall<BindMobilePayload>('/bind_mobile/', kick);
export const legacyChangeMobile = /* @__PURE__ */ defineCall<ChangeMobilePayload>('/change_mobile/', rebind);
