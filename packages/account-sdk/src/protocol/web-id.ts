/**
 * The device fingerprint cookie `s_v_web_id`: `verify_` + time in base 36 + `_` + 32 random
 * characters. The server treats it as an opaque device hint, never as proof of anything.
 */

const WEB_ID_PATTERN = /^verify_[0-9a-z]{6,12}_[0-9A-Za-z]{32}$/;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** True when `value` has the `s_v_web_id` shape. */
export function isWebId(value: unknown): value is string {
  return typeof value === 'string' && WEB_ID_PATTERN.test(value);
}

/** A fresh web id from the platform's cryptographic random source. */
export function createWebId(now: number = Date.now()): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let tail = '';
  for (const byte of bytes) tail += ALPHABET[byte % ALPHABET.length];
  return `verify_${now.toString(36)}_${tail}`;
}
