import { webPaths } from '../protocol/paths';
import { defineCall } from './define-call';

/** A remembered device of the signed-in account, as `listDevices` answers it (never a fingerprint). */
export interface RememberedDevice {
  id: string;
  /** Milliseconds since the epoch. */
  first_seen_at: number;
  last_seen_at: number;
  /** Browser and system, e.g. "Chrome on macOS". */
  user_agent: string;
  /** Whether it is the device this client runs on. */
  current: boolean;
}

/**
 * The devices the signed-in account has verified (a sign-in from any other device answers 2046,
 * second verification). Resolves `{ devices }`.
 */
export const listDevices = /* @__PURE__ */ defineCall<object, { devices: RememberedDevice[] }>(
  webPaths,
  'deviceList',
  null,
  'GET',
);
/** Forgets one of the signed-in account's devices (the current one too): its next sign-in is verified again. */
export const forgetDevice = /* @__PURE__ */ defineCall<{ device_id: string }>(webPaths, 'deviceForget');
