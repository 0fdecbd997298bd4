import type {
  AccountInfo,
  BindMobilePayload,
  ChangeMobilePayload,
  Extra,
  IdentifierChangedData,
  LogoutData,
  LogoutPayload,
  MobileCodePayload,
  NextPayload,
  PasswordChangedData,
  QrcodeData,
  QrStatusData,
  ResetPasswordPayload,
  SendCodeData,
  SmsLoginPayload,
  TokenPayload,
} from '../protocol/types';
import { frozen, kick, logoutByRequest, nextRoot, rebind } from './defaults';
import { defineCall } from './define-call';

/** Legacy root paths: the same flows, for servers that still answer them. */
export const legacySendActivationCode = /* @__PURE__ */ defineCall<MobileCodePayload, SendCodeData>(
  '/send_activation_code/',
);
export const quickLogin = /* @__PURE__ */ defineCall<SmsLoginPayload, AccountInfo>('/quick_login/', frozen);
export const legacyAccountLogin = /* @__PURE__ */ defineCall<{ password: string } & Extra, AccountInfo>(
  '/account_login/',
  frozen,
);
export const legacyLogout = /* @__PURE__ */ defineCall<LogoutPayload, LogoutData>(
  '/logout/',
  logoutByRequest,
  'GET',
);
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
export const legacyResetPassword = /* @__PURE__ */ defineCall<ResetPasswordPayload, PasswordChangedData>(
  '/reset_password/',
);
export const legacyBindMobile = /* @__PURE__ */ defineCall<BindMobilePayload, IdentifierChangedData>(
  '/bind_mobile/',
  kick,
);
export const legacyChangeMobile = /* @__PURE__ */ defineCall<ChangeMobilePayload, IdentifierChangedData>(
  '/change_mobile/',
  rebind,
);
