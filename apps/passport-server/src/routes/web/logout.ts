import { signOut, signOutByLink } from '../../flows/sign-out';
import { paths } from '../../protocol';
import { LogoutData, logoutPostSchema, logoutSchema } from '../../schemas/logout';
import { flowRoute } from '../declare';

/**
 * GET logout, the one GET that changes state: the SDK logs out by navigating; flows/sign-out guards it
 * against cross-site navigations. It redirects to `next` unless `not_redirect=1`.
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
    const { next, redirect } = await signOutByLink(app, request, reply, request.query);
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
  run: (app, request, reply) => signOut(app, request, reply, request.query.next ?? request.body.next),
});
