import { safeRedirect } from '@portico/account-sdk/protocol';

/**
 * The `next` a sign-in may send the browser to: a same-origin relative path only, decided by the
 * protocol's one redirect rule on the normalised target (so `/.//evil.example`, whose path becomes
 * `//evil.example`, is refused). Anything else gives `null`, and the caller uses its default.
 */
export function safeNext(next: string | null | undefined, origin = 'http://portico.invalid'): string | null {
  if (typeof next !== 'string' || !next.startsWith('/')) return null;
  return safeRedirect(next, { origin });
}

/** `/login?next=/workbench`: the path is kept readable ('/' unescaped), everything else escaped. */
export function loginHref(next: string | null, base = '/login'): string {
  const safe = safeNext(next);
  return safe ? `${base}?next=${encodeURIComponent(safe).replace(/%2F/gi, '/')}` : base;
}
