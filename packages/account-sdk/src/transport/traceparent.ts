const hex = (bytes: number): string => {
  let out = '';
  for (const byte of crypto.getRandomValues(new Uint8Array(bytes))) out += byte.toString(16).padStart(2, '0');
  return out;
};

/** A W3C `traceparent` with a fresh trace id and span id, sampled. */
export const traceparent = (): string => `00-${hex(16)}-${hex(8)}-01`;
