import type { Extra, FactorsData, RecoveryCodesData, TotpStartedData } from '../protocol/types';
import { defineCall } from './define-call';

/**
 * The signed-in account's authenticator app and recovery codes (docs/factors.md). Starting an app,
 * removing it and generating recovery codes add or remove a way in: they answer STEP_UP_REQUIRED
 * (2047) unless the session verified recently (`stepUpPlugin` asks and sends the call again).
 */

/** What the account has set up, and every way its second verification accepts. */
export const listFactors = /* @__PURE__ */ defineCall<Extra, FactorsData>(
  '/passport/web/factor/list/',
  null,
  'GET',
);
/** Starts an authenticator app: the secret and its otpauth:// URI, shown once. */
export const totpStart = /* @__PURE__ */ defineCall<Extra, TotpStartedData>('/passport/web/totp/start/');
/** Confirms the started app with its first code; it then verifies sign-ins and step-ups. */
export const totpConfirm = /* @__PURE__ */ defineCall<Extra & { code: string }, FactorsData>(
  '/passport/web/totp/confirm/',
);
/** Removes the authenticator app. */
export const totpRemove = /* @__PURE__ */ defineCall<Extra, FactorsData>('/passport/web/totp/remove/');
/** Ten new recovery codes, shown once; the old set stops working. */
export const generateRecoveryCodes = /* @__PURE__ */ defineCall<Extra, RecoveryCodesData>(
  '/passport/web/recovery_code/generate/',
);
