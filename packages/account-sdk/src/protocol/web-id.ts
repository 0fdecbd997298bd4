/**
 * The device fingerprint cookie `s_v_web_id`: `verify_` + time in base 36 + `_` + 32 random
 * characters of 0-9, A-Z and a-z (this SDK writes hex digits). The server treats it as an opaque device hint, never as proof of anything.
 */

import { hex, randomBytes } from './hex';

const WEB_ID_PATTERN = /^verify_[0-9a-z]{6,12}_[0-9A-Za-z]{32}$/;

/** True when `value` has the `s_v_web_id` shape. */
export function isWebId(value: unknown): value is string {
  return typeof value === 'string' && WEB_ID_PATTERN.test(value);
}

/** A fresh web id: its 32 characters are the hex of 16 bytes from the platform's cryptographic random source. */
export const createWebId = (now: number = Date.now()): string =>
  `verify_${now.toString(36)}_${hex(randomBytes(16))}`;
