import { createHmac, hash, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 as hex (the one-shot `crypto.hash`: no Hash object per call). */
export const sha256 = (value: string): string => hash('sha256', value, 'hex');

/**
 * HMAC-SHA-256 as base64url. Pass a KeyObject made once (`createSecretKey`) on hot paths: a Buffer key
 * is turned into a key object on every call (about 13 µs against 2 µs here).
 */
export const hmac = (secret: Buffer | KeyObject, value: string): string =>
  createHmac('sha256', secret).update(value).digest('base64url');

/** A random opaque token: `bytes` of entropy, base64url. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Constant-time string equality (lengths may differ; the length itself is not secret here). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
