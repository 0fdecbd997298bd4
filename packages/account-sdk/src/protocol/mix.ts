/**
 * The mix codec (spec §5): with `mix_mode=1`, each sensitive field travels as the hex of its UTF-8
 * bytes, each byte XOR 0x05. It keeps values out of casual logs; it is not security (TLS is).
 */

/** The spec's sensitive fields; `current_password` joins them as the password it is. */
export const SENSITIVE_FIELDS: readonly string[] = [
  'mobile',
  'email',
  'password',
  'current_password',
  'code',
  'type',
  'names',
  'identity_card',
  'real_name',
  'subject_name',
  'base_infos',
  'birthday',
];

import { hex } from './hex';

const MIX_KEY = 0x05;

/** Encodes a value: hex of its UTF-8 bytes, each XOR 5. */
export const mixEncode = (value: string): string =>
  hex(new TextEncoder().encode(value).map((byte) => byte ^ MIX_KEY));

/** Decodes a mixed value; throws a TypeError on anything that is not an even-length hex string. */
export function mixDecode(hex: string): string {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new TypeError('not a mixed value');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16) ^ MIX_KEY;
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** Returns a copy with every sensitive field mix-encoded and `mix_mode: 1` added when any was. */
export function encodeMixedFields<T extends Record<string, unknown>>(fields: T): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  let mixed = false;
  for (const name of SENSITIVE_FIELDS) {
    const value = out[name];
    if (value === undefined || value === null) continue;
    out[name] = mixEncode(String(value));
    mixed = true;
  }
  if (mixed) out.mix_mode = 1;
  return out;
}

/**
 * The server side: when `mix_mode` is 1, decodes every sensitive string field. Throws a TypeError when
 * a field is not a mixed value, so the server answers 400 instead of guessing.
 */
export function decodeMixedFields<T extends Record<string, unknown>>(fields: T): T {
  if (String(fields.mix_mode) !== '1') return fields;
  const out: Record<string, unknown> = { ...fields };
  for (const name of SENSITIVE_FIELDS) {
    const value = out[name];
    if (typeof value === 'string') out[name] = mixDecode(value);
  }
  return out as T;
}
