import type { AccountActivityPayload, AuditPageData, DeviceListData, EmptyData } from '../protocol/types';
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
