import type {
  BindEmailPayload,
  BindMobilePayload,
  ChangeMobilePayload,
  IdentifierChangedData,
} from '../protocol/types';
import { kick, rebind } from './defaults';
import { defineCall } from './define-call';

/** Binds a mobile number to the signed-in account. */
export const bindMobile = /* @__PURE__ */ defineCall<BindMobilePayload, IdentifierChangedData>(
  '/passport/web/mobile/bind/',
  kick,
);
/** Rebinds the account to a new mobile number (old step's `ticket`, then new number and code). */
export const changeMobile = /* @__PURE__ */ defineCall<ChangeMobilePayload, IdentifierChangedData>(
  '/passport/web/mobile/change/',
  rebind,
);
/** Binds an e-mail address to the signed-in account. */
export const bindEmail = /* @__PURE__ */ defineCall<BindEmailPayload, IdentifierChangedData>(
  '/passport/web/email/bind/',
  kick,
);
/** Rebinds the account to a new e-mail address. */
export const changeEmail = /* @__PURE__ */ defineCall<BindEmailPayload, IdentifierChangedData>(
  '/passport/web/email/change/',
  kick,
);
