import type { FastifyInstance, FastifyRequest } from 'fastify';
import { safeRedirect } from '../lib/redirect';

/**
 * The wap login of the app flavour (spec §2; docs/app-bridge.md): the SDK's `wapLoginUrl` leads to
 * /passport/auth/wap_login/ with `next` = /passport/auth/login_success/?service=…; the passport sends
 * the browser to the app flavour's sign-in screens (apps/app-webview, phone layout), which come back
 * to `next` once signed in; login_success sends it to the app's login-success page, and that page hands
 * back to the caller (the native app through the bridge, or `service` in a plain browser, through
 * `hand_back=1` here, so the one redirect rule decides where a browser may go).
 */

/** Where the app flavour is mounted ('/app/' by default; @portico/app-routes). */
function appMount(app: FastifyInstance): string {
  return app.config.apps.find((entry) => entry.name === 'app-webview')?.mount ?? '/app/';
}

const rule = (app: FastifyInstance, target: unknown, fallback = '/') =>
  safeRedirect(target, app.config.publicOrigin, app.config.allowedOrigins, fallback);

/** GET auth/wap_login: the app flavour's sign-in, coming back to a safe `next`. */
export function wapLoginTarget(app: FastifyInstance, query: { next?: string | undefined }): string {
  let next = rule(app, query.next, `${appMount(app)}login-success`);
  // The SDK builds an absolute next on the passport's own origin: the app follows same-origin paths.
  if (next.startsWith(`${app.config.publicOrigin}/`)) next = next.slice(app.config.publicOrigin.length);
  return `${appMount(app)}login?next=${encodeURIComponent(next)}`;
}

/**
 * GET auth/login_success: signed out, the app's sign-in first (coming back here); signed in, the app's
 * login-success page with `service`; with `hand_back=1`, `service` itself when the redirect rule allows
 * it (else '/').
 */
export function loginSuccessTarget(
  app: FastifyInstance,
  request: FastifyRequest,
  query: { service?: string | undefined; hand_back?: string | undefined },
): string {
  const service = query.service ?? '';
  const here = `/passport/auth/login_success/?service=${encodeURIComponent(service)}`;
  if (!request.session) return `${appMount(app)}login?next=${encodeURIComponent(here)}`;
  if (query.hand_back === '1') return rule(app, service);
  return `${appMount(app)}login-success?service=${encodeURIComponent(service)}`;
}
