import type {
  AccountInfo,
  Extra,
  PasskeyData,
  PasskeyFactorOptionsPayload,
  PasskeyListData,
  PasskeyLoginPayload,
  PasskeyOptionsData,
  PasskeyRegisterPayload,
  PasskeyRemovedData,
  PasskeyRemovePayload,
  PasskeyRenamePayload,
} from '../protocol/types';
import { defineCall } from './define-call';

/**
 * Passkeys (docs/factors.md): the server's calls. A module of its own, so only the pages that use them
 * carry them; `registerPasskey` and `signInWithPasskey` (../passkeys/ceremonies) run a whole ceremony.
 */

/** Options to create a passkey for the signed-in account; needs a recent verification (STEP_UP_REQUIRED). */
export const passkeyRegisterOptions = /* @__PURE__ */ defineCall<Extra, PasskeyOptionsData>(
  '/passport/passkey/register/options/',
);
/** Registers the passkey the browser created; needs a recent verification. */
export const passkeyRegisterVerify = /* @__PURE__ */ defineCall<PasskeyRegisterPayload, PasskeyData>(
  '/passport/passkey/register/verify/',
);
/** Options to sign in with any passkey of this site (no identifier). */
export const passkeyLoginOptions = /* @__PURE__ */ defineCall<Extra, PasskeyOptionsData>(
  '/passport/passkey/login/options/',
);
/** Signs in with the passkey the browser answered with; resolves the account like every sign-in. */
export const passkeyLoginVerify = /* @__PURE__ */ defineCall<PasskeyLoginPayload, AccountInfo>(
  '/passport/passkey/login/verify/',
);
/**
 * Options to prove one of the account's passkeys as a factor: with `sms_code_key`, a second
 * verification (2046) of this browser; without, the signed-in account's step-up. The answer goes to
 * `smsLoginContinue` / `reverify` with `method: 'passkey'` and `credential`.
 */
export const passkeyFactorOptions = /* @__PURE__ */ defineCall<
  PasskeyFactorOptionsPayload,
  PasskeyOptionsData
>('/passport/passkey/factor/options/');
/** The signed-in account's passkeys. */
export const listPasskeys = /* @__PURE__ */ defineCall<Extra, PasskeyListData>(
  '/passport/passkey/list/',
  null,
  'GET',
);
/** Renames one of the account's passkeys. */
export const renamePasskey = /* @__PURE__ */ defineCall<PasskeyRenamePayload, PasskeyData>(
  '/passport/passkey/rename/',
);
/** Removes one of the account's passkeys; needs a recent verification, and never the last way in. */
export const removePasskey = /* @__PURE__ */ defineCall<PasskeyRemovePayload, PasskeyRemovedData>(
  '/passport/passkey/remove/',
);
