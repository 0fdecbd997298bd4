/**
 * The device fingerprint cookie `s_v_web_id`: `verify_` + time in base 36 + `_` + 32 random
 * characters. The server treats it as an opaque device hint, never as proof of anything.
 */

import { randomBytes } from './hex';

const WEB_ID_PATTERN = /^verify_[0-9a-z]{6,12}_[0-9A-Za-z]{32}$/;

/** True when `value` has the `s_v_web_id` shape. */
export function isWebId(value: unknown): value is string {
  return typeof value === 'string' && WEB_ID_PATTERN.test(value);
}

/** A fresh web id from the platform's cryptographic random source. */
export function createWebId(now: number = Date.now()): string {
  // Each byte modulo 62 picks one of 0-9, A-Z, a-z (char codes 48, 65 and 97 onwards).
  const tail = Array.from(randomBytes(32), (byte) => {
    const n = byte % 62;
    return String.fromCharCode(n + (n < 10 ? 48 : n < 36 ? 55 : 61));
  });
  return `verify_${now.toString(36)}_${tail.join('')}`;
}
