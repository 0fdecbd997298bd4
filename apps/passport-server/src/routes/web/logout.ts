import { logoutByLink, signOut, subjectAidOf } from '../../flows/sign-out';
import { safeRedirect } from '../../lib/redirect';
import { paths } from '../../protocol';
import { LogoutData, logoutPostSchema, logoutSchema } from '../../schemas/logout';
import { flowRoute } from '../declare';

/**
 * GET logout, the one GET that changes state: the SDK logs out by navigating. A same-origin or typed
 * navigation signs out and redirects to `next` unless `not_redirect=1`; any other gets a confirmation
 * page that keeps the session, a forged cross-site one a 403 (flows/sign-out).
 */
export const logoutLink = flowRoute({
  method: 'GET',
  schema: logoutSchema,
  data: LogoutData,
  responses: { 302: logoutSchema.response[302] },
  at: [
    ['web', paths.web.logout],
    ['sso', paths.sso.logout],
    ['legacy', paths.legacy.logout],
  ],
  run: async (app, request, reply) => {
    const { publicOrigin, allowedOrigins } = app.config;
    const next = safeRedirect(request.query.next, publicOrigin, allowedOrigins);
    const done = await logoutByLink(app, request, reply, {
      trusted: [publicOrigin, ...allowedOrigins],
      destination: next,
      // The GET's own path: each family's POST logout is at the same path.
      action: request.routeOptions.url ?? request.url.split('?')[0] ?? '/',
      subject: subjectAidOf(request.query.subject_aid),
    });
    if (!done) return undefined;
    if (request.query.not_redirect === '1') return { next };
    await reply.redirect(next, 302);
    return undefined;
  },
});

/** POST logout goes through the CSRF check like every state change; `next` in the query or the form. */
export const logout = flowRoute({
  method: 'POST',
  schema: logoutPostSchema,
  data: LogoutData,
  at: [['web', paths.web.logout]],
  run: (app, request, reply) =>
    signOut(
      app,
      request,
      reply,
      request.query.next ?? request.body.next,
      subjectAidOf(request.query.subject_aid, request.body.subject_aid),
    ),
});
