/** `n` bytes from the platform's cryptographic random source. */
export const randomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

/** Lower-case hex of bytes, two digits each (`| 256` keeps the leading zero). */
export const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) => (byte | 256).toString(16).slice(1)).join('');
