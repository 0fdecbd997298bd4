import type { AfterSignInContext, AuthDestination } from '@portico/account-pages';

/**
 * Where the router lives: under /sso/ on the passport's origin, or at the root of SSO_HOST (the same
 * build; its files stay under /sso/ there too).
 */
export function routerBasename(pathname: string): string {
  return /^\/sso(\/|$)/i.test(pathname) ? '/sso' : '/';
}

/**
 * After a sign-in, the browser loads the passport's /sso/login again (a full page load, not a route of
 * this app): the passport sees the session and sends the browser to the service with its ticket, or
 * shows its error page for a service it does not know.
 */
export function afterSignIn({ search }: AfterSignInContext): AuthDestination {
  const base = routerBasename(window.location.pathname).replace(/\/$/, '');
  return { document: `${base}/login?service=${encodeURIComponent(search.get('service') ?? '')}` };
}

/** The service a page signs in to, as a person recognises it: its host, or null for none. */
export function serviceHost(service: string | null): string | null {
  if (!service) return null;
  try {
    const url = new URL(service);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.host : null;
  } catch {
    return null;
  }
}
