/**
 * The `next` a sign-in may send the browser to: a same-origin relative path only. It must start with a
 * single '/', not '//' or '/\' (browsers read both as "another host"), carry no scheme, no control
 * characters or backslashes, and still be same-origin once the browser has parsed it. Anything else
 * gives `null`, and the caller uses its default.
 */
export function safeNext(next: string | null | undefined, origin = 'http://portico.invalid'): string | null {
  if (typeof next !== 'string' || next === '' || next.length > 2048) return null;
  if (next[0] !== '/' || next[1] === '/' || next[1] === '\\') return null;
  // Backslashes and control characters (tab, newline) are normalised away by URL parsers.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return null;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `/login?next=/workbench`: the path is kept readable ('/' unescaped), everything else escaped. */
export function loginHref(next: string | null, base = '/login'): string {
  const safe = safeNext(next);
  return safe ? `${base}?next=${encodeURIComponent(safe).replace(/%2F/gi, '/')}` : base;
}
