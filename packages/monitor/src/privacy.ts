/**
 * The rules that keep personal data in the page: addresses lose their query (unless a parameter is
 * allow-listed) and fragment, path segments that look like identifiers become ':id', and free text
 * (error messages, stacks) loses e-mail addresses and long numbers. One place, used by every collector.
 */

export interface UrlRules {
  /** The page's address: a URL on its origin is reduced to its path. */
  base?: string | undefined;
  /** Query parameters kept (name and value); every other one is dropped. Default none. */
  allowParams?: readonly string[] | undefined;
}

const EMAIL = /[^\s@/:;,()<>"']+@[^\s@/:;,()<>"']+\.[a-z]{2,}/gi;
/**
 * Seven or more digits, with the spaces, dashes and '+' of phone numbers; not line:column pairs. The
 * character before is captured and put back, as a lookbehind would break the bundle on Safari < 16.4.
 */
const LONG_NUMBER = /(^|[^\w:.])\+?\d[\d -]{5,}\d(?!\w)/g;
/** A segment with an '@', a run of six digits, or 24+ characters of a token alphabet. */
const IDENTIFIER_SEGMENT = /@|\d{6}|^[\w-]{24,}$/;
/** An absolute address in text, and the `:line:column` a stack frame appends to it. */
const URL_IN_TEXT = /\b(https?:\/\/[^\s)'"<>]+?)((?::\d+){1,2})?(?=[\s)'"<>]|$)/g;

function segment(raw: string): string {
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape is checked as written.
  }
  return IDENTIFIER_SEGMENT.test(decoded) ? ':id' : raw;
}

/**
 * The address as it may leave the page: origin (dropped when it is `base`'s) and path, path segments
 * that look like identifiers as ':id', then only the allow-listed query parameters; never a fragment.
 * Anything that does not parse as a URL becomes ''.
 */
export function sanitizeUrl(url: string, rules: UrlRules = {}): string {
  let parsed: URL;
  let base: URL | undefined;
  try {
    base = rules.base ? new URL(rules.base) : undefined;
    parsed = new URL(url, base);
  } catch {
    return '';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `${parsed.protocol}`;
  const path = parsed.pathname.split('/').map(segment).join('/');
  const kept = new URLSearchParams();
  for (const name of rules.allowParams ?? []) {
    for (const value of parsed.searchParams.getAll(name)) kept.append(name, value);
  }
  const query = `${kept}` ? `?${kept}` : '';
  const origin = base && parsed.origin === base.origin ? '' : parsed.origin;
  return origin + path + query;
}

/** E-mail addresses and long numbers out of text that holds no address. */
const plain = (text: string): string => text.replace(EMAIL, '<email>').replace(LONG_NUMBER, '$1<number>');

/** Free text without e-mail addresses, long numbers, queries or fragments; at most `max` characters. */
export function scrubText(text: string, max: number, rules: UrlRules = {}): string {
  let scrubbed = '';
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const [whole, url = '', position = ''] = match;
    scrubbed += plain(text.slice(last, match.index)) + sanitizeUrl(url, rules) + position;
    last = match.index + whole.length;
  }
  scrubbed += plain(text.slice(last));
  return scrubbed.length > max ? `${scrubbed.slice(0, max - 1)}…` : scrubbed;
}

const TOKEN = /^[a-z0-9][a-z0-9_.-]{0,31}$/i;

/** A short enumerated value (a method, an app name) as given, else 'other': never free text. */
export function token(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const text = String(value);
  return TOKEN.test(text) ? text : 'other';
}
