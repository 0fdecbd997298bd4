/** Where a redirect may go: the page's own origin, plus origins allowed exactly (`https://app.example.com`). */
export interface RedirectPolicy {
  /** The origin relative targets resolve against, e.g. `https://passport.example.com`. */
  origin: string;
  /** Other origins an absolute target may name, compared exactly after parsing. Default: none. */
  allowedOrigins?: readonly string[];
}

// Browsers read a backslash as a slash and drop tabs and newlines before parsing: such input is refused.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
const UNSAFE = /[\\\u0000-\u001f\u007f]/;

/**
 * The one redirect rule for every target that comes from input (`next`, `next_url`, `service`): a
 * relative path on `policy.origin`, or an absolute http(s) URL whose origin is `policy.origin` or one of
 * `policy.allowedOrigins`. The decision is made on the target as the browser would parse it — after
 * dot segments (`.`, `..`, `%2e`) are removed — so `/.//evil.example` (whose normalised path is
 * `//evil.example`, another host) is refused. Returns the normalised target, or `null` for anything
 * else (malformed input included): the caller falls back to its default.
 */
export function safeRedirect(target: unknown, policy: RedirectPolicy): string | null {
  if (typeof target !== 'string' || target === '' || target.length > 2048 || UNSAFE.test(target)) return null;
  let origin: string;
  let url: URL;
  try {
    origin = new URL(policy.origin).origin;
    url = new URL(target, origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  if (target.startsWith('/')) {
    // A relative target stays relative, and must still be a path (not `//host`) once normalised.
    if (url.origin !== origin || target.startsWith('//') || url.pathname.startsWith('//')) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  }
  // Anything else must be absolute: `evil.example/x` or `javascript:` never resolves against our origin.
  if (!/^https?:\/\//i.test(target)) return null;
  if (url.origin !== origin && !policy.allowedOrigins?.includes(url.origin)) return null;
  return url.href;
}
