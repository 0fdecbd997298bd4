import type {
  AccountActivityPayload,
  AuditPageData,
  DeviceListData,
  EmptyData,
  SignInChangeDisownedData,
  SignInChangesData,
} from '../protocol/types';
import { defineCall } from './define-call';

/**
 * The devices the signed-in account has verified (a sign-in from any other device answers 2046,
 * second verification). Resolves `{ devices }`.
 */
export const listDevices = /* @__PURE__ */ defineCall<object, DeviceListData>(
  '/passport/web/device/list/',
  null,
  'GET',
);
/** Forgets one of the signed-in account's devices (the current one too): its next sign-in is verified again. */
export const forgetDevice = /* @__PURE__ */ defineCall<{ device_id: string }, EmptyData>(
  '/passport/web/device/forget/',
);
/**
 * The signed-in person's own security activity, newest first: sign-ins (`account.signed_in`, with
 * `data.newDevice`), failed sign-ins, and changes to passwords, identifiers and linked sign-ins. Pass
 * `next_cursor` as `cursor` for the older page.
 */
export const listAccountActivity = /* @__PURE__ */ defineCall<AccountActivityPayload, AuditPageData>(
  '/passport/web/account/activity/',
  null,
  'GET',
);
/**
 * The signed-in account's changes to its sign-in methods in the last 30 days, newest first: identifiers
 * bound, changed or unbound; passwords set, changed or reset; third-party accounts linked or unlinked;
 * authenticators, recovery codes and passkeys added or removed. Resolves `{ changes }`.
 */
export const listSignInChanges = /* @__PURE__ */ defineCall<object, SignInChangesData>(
  '/passport/web/account/sign_in_changes/',
  null,
  'GET',
);
/**
 * "This wasn't me" on one of those changes (its `id`): every session of the account ends, this one
 * too, and every remembered device is forgotten. Lead the person on to reset their password with their
 * own mobile or e-mail, then to review their sign-in methods.
 */
export const disownSignInChange = /* @__PURE__ */ defineCall<{ event_id: string }, SignInChangeDisownedData>(
  '/passport/web/account/sign_in_changes/disown/',
);
