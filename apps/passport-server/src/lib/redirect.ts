/**
 * A redirect target from user input (`next`, `service`): a same-origin relative path, or an absolute
 * URL whose origin is exactly PUBLIC_ORIGIN or one of ALLOWED_ORIGINS. Anything else, malformed
 * input included, gives the fallback. Never built from Host or X-Forwarded-Host.
 */
export function safeRedirect(
  next: unknown,
  publicOrigin: string,
  allowedOrigins: readonly string[],
  fallback = '/',
): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2048) return fallback;
  // Browsers treat backslashes as slashes and drop tabs and newlines: refuse them outright.
  if (next.includes('\\') || [...next].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return fallback;
  if (next.startsWith('/')) {
    if (next.startsWith('//')) return fallback;
    try {
      const url = new URL(next, publicOrigin);
      return url.origin === publicOrigin ? `${url.pathname}${url.search}${url.hash}` : fallback;
    } catch {
      return fallback;
    }
  }
  try {
    const url = new URL(next);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return fallback;
    if (url.username || url.password) return fallback;
    return url.origin === publicOrigin || allowedOrigins.includes(url.origin) ? url.href : fallback;
  } catch {
    return fallback;
  }
}
