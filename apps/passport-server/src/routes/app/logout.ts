import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signOut } from '../../flows/sign-out';
import { paths, webSuccess } from '../../protocol';
import { appLogoutSchema } from '../../schemas/app';
import { bodyMayBeAbsent } from './no-body';

/**
 * POST /Logout: kills the session server side and clears the cookie. POST only (the app never logs out
 * by navigating, so there is no GET to guard) and CSRF-checked like every state change. Logging out
 * without a session succeeds: the caller's goal, no session, holds.
 */
const logout: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    paths.app.Logout,
    { schema: appLogoutSchema, config: { envelope: 'app' }, preValidation: bodyMayBeAbsent },
    async (request, reply) => {
      await signOut(app, request, reply);
      return webSuccess({});
    },
  );
};

export default logout;
