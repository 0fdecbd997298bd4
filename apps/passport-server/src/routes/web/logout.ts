import { signOut, signOutByLink } from '../../flows/sign-out';
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
    const answer = await signOutByLink(app, request, reply, request.query);
    if (!answer) return undefined;
    const { next, redirect } = answer;
    if (!redirect) return { next };
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
      request.query.subject_aid ?? request.body.subject_aid,
    ),
});
