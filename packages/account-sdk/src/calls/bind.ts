import { webPaths } from '../protocol/paths';
import { kick, rebind, unbind } from './defaults';
import { defineCall } from './define-call';
import type {
  AuthBindPayload,
  AuthUnbindPayload,
  BindEmailPayload,
  BindMobilePayload,
  ChangeMobilePayload,
} from './payloads';

/** Binds a mobile number to the signed-in account. */
export const bindMobile = /* @__PURE__ */ defineCall<BindMobilePayload>(webPaths, 'mobileBind', kick);
/** Rebinds the account to a new mobile number (old step's `ticket`, then new number and code). */
export const changeMobile = /* @__PURE__ */ defineCall<ChangeMobilePayload>(webPaths, 'mobileChange', rebind);
/** Binds an e-mail address to the signed-in account. */
export const bindEmail = /* @__PURE__ */ defineCall<BindEmailPayload>(webPaths, 'emailBind', kick);
/** Rebinds the account to a new e-mail address. */
export const changeEmail = /* @__PURE__ */ defineCall<BindEmailPayload>(webPaths, 'emailChange', kick);
/** Binds a third-party account. */
export const bindAuth = /* @__PURE__ */ defineCall<AuthBindPayload>(webPaths, 'authBind', unbind);
/** Unbinds a third-party account. */
export const unbindAuth = /* @__PURE__ */ defineCall<AuthUnbindPayload>(webPaths, 'authUnbind');
/** Moves a third-party binding to the signed-in account. */
export const switchAuthBind = /* @__PURE__ */ defineCall<AuthBindPayload>(webPaths, 'authSwitchBind', unbind);
