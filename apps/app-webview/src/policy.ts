import { type AfterSignInContext, type AuthDestination, nextOrFallback } from '@portico/account-pages';

/** The router lives under the app's mount. */
export const BASENAME = '/app';

/**
 * After a sign-in in the app flavour: back to a safe `next` (the QR confirmation, or the passport's
 * login_success step of a wap login), else the login-success page for `service`. A full page load:
 * `next` is a path of the passport's origin, not necessarily a route of this app.
 */
export function afterSignIn({ search }: AfterSignInContext): AuthDestination {
  const service = search.get('service');
  const fallback = `${BASENAME}/login-success${service ? `?service=${encodeURIComponent(service)}` : ''}`;
  return { document: nextOrFallback(search.get('next'), fallback, [`${BASENAME}/login`]) };
}

/** The token of a Portico QR code (its address is this app's /qr page on this origin), or null. */
export function qrTokenOf(text: string): string | null {
  try {
    const url = new URL(text, window.location.origin);
    if (url.origin !== window.location.origin || url.pathname.replace(/\/$/, '') !== `${BASENAME}/qr`)
      return null;
    return url.searchParams.get('token');
  } catch {
    return null;
  }
}

/** The host of a service, as a person recognises it, or null. */
export function serviceHost(service: string | null): string | null {
  if (!service) return null;
  try {
    return new URL(service, window.location.origin).host;
  } catch {
    return null;
  }
}
