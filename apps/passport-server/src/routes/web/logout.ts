import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signOut, signOutByLink } from '../../flows/sign-in';
import { paths, webSuccess } from '../../protocol';
import { logoutPostSchema, logoutSchema } from '../../schemas/logout';

/**
 * GET and POST logout. POST goes through the CSRF check like every state change. GET exists because
 * the SDK logs out by navigating; flows/sign-in guards it against cross-site navigations.
 */
const logout: FastifyPluginAsyncTypebox = async (app) => {
  app.get(paths.web.logout, { schema: logoutSchema }, async (request, reply) => {
    const { next, redirect } = await signOutByLink(app, request, reply, request.query);
    return redirect ? reply.redirect(next, 302) : webSuccess({ next });
  });

  app.post(paths.web.logout, { schema: logoutPostSchema }, async (request, reply) =>
    webSuccess(await signOut(app, request, reply, request.query.next ?? request.body.next)),
  );
};

export default logout;
