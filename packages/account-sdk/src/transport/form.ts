/**
 * Turns a payload into wire fields: undefined and null fields are dropped, objects and arrays travel as
 * JSON, Blobs (uploads) stay as they are, everything else as its string.
 */
export function toFields(payload: Record<string, unknown>): Record<string, string | Blob> {
  const out: Record<string, string | Blob> = {};
  for (const key in payload) {
    const value = payload[key];
    if (value == null) continue;
    out[key] =
      typeof Blob !== 'undefined' && value instanceof Blob
        ? value
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
  }
  return out;
}

/** `application/x-www-form-urlencoded` body of a payload. */
export const formBody = (payload: Record<string, unknown>): URLSearchParams =>
  new URLSearchParams(toFields(payload) as Record<string, string>);

/** `multipart/form-data` body of a payload (uploads). */
export function multipartBody(payload: Record<string, unknown>): FormData {
  const form = new FormData();
  const fields = toFields(payload);
  for (const key in fields) form.append(key, fields[key]!);
  return form;
}
