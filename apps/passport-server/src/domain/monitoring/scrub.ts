/**
 * Personal data the monitoring collector drops before it stores anything (docs/monitoring.md): pages
 * put e-mails, phone numbers and tokens in their URLs and error messages, and the collector takes
 * batches from anyone. By rule, not by a list of known pages:
 *
 * - an e-mail address anywhere → `[email]`;
 * - a phone number anywhere (7 digits or more, with `+`, spaces, dots, dashes or brackets between) →
 *   `[phone]`;
 * - in a URL's query string, the value of every parameter whose name says what it holds (token,
 *   ticket, code, key, secret, password, session, auth, sig, state, nonce, email, mobile, phone,
 *   account, user…) → `[removed]`, and any other value that looks like a token (16 or more letters,
 *   digits, `-`, `_`, `.`, `=`) → `[token]`; the fragment is dropped.
 */

const EMAIL = /[\p{L}\p{N}._%+-]+(@|%40)[\p{L}\p{N}.-]+\.[\p{L}]{2,}/giu;
const PHONE = /(?:\+|%2B)?\d(?:[\d\s().-]|%20){5,}\d/gi;
const SENSITIVE_NAME =
  /token|ticket|code|key|secret|pass|pwd|session|auth|sig|state|nonce|email|mail|mobile|phone|tel|account|user|login|id_?card/i;
const TOKEN_LIKE = /^[A-Za-z0-9._~=+/-]{16,}$/;

/** Query parameters inside free text (an error message quoting a URL). */
const TEXT_PARAM = /([?&;])([A-Za-z_][\w.-]*)=([^&\s#"'<>]*)/g;

/** A text with its e-mails, phone numbers and query-string secrets replaced. */
export function scrubText(text: string): string {
  const params = text.replace(TEXT_PARAM, (match, separator: string, name: string, value: string) => {
    if (SENSITIVE_NAME.test(name)) return `${separator}${name}=[removed]`;
    return TOKEN_LIKE.test(value) ? `${separator}${name}=[token]` : match;
  });
  return params.replace(EMAIL, '[email]').replace(PHONE, (match) => {
    const digits = match.replace(/%2B|%20|\D/gi, '');
    return digits.length >= 7 ? '[phone]' : match;
  });
}

/** A URL or path with its query string's personal data and its fragment dropped (see above). */
export function scrubUrl(value: string): string {
  const hash = value.indexOf('#');
  const withoutHash = hash >= 0 ? value.slice(0, hash) : value;
  const question = withoutHash.indexOf('?');
  if (question < 0) return scrubText(withoutHash);
  const base = withoutHash.slice(0, question);
  const query = withoutHash
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return scrubText(pair);
      const name = pair.slice(0, equals);
      let decoded: string;
      try {
        decoded = decodeURIComponent(pair.slice(equals + 1).replace(/\+/g, ' '));
      } catch {
        decoded = pair.slice(equals + 1);
      }
      if (SENSITIVE_NAME.test(name)) return `${scrubText(name)}=[removed]`;
      if (TOKEN_LIKE.test(decoded)) return `${scrubText(name)}=[token]`;
      const scrubbed = scrubText(decoded);
      return `${scrubText(name)}=${scrubbed === decoded ? pair.slice(equals + 1) : encodeURIComponent(scrubbed)}`;
    })
    .join('&');
  return `${scrubText(base)}?${query}`;
}
