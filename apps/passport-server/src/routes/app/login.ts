import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { passwordSignIn } from '../../flows/password-sign-in';
import { paths, webSuccess } from '../../protocol';
import { appLoginSchema } from '../../schemas/app';

/**
 * POST /Login: the password sign-in flow under its app name. The same flow as user/login, so the same
 * identifier parsing, dummy-hash verify for unknown accounts, failure counters (shared: alternating
 * /Login and user/login buys no guesses), rehash and session rotation.
 */
const login: FastifyPluginAsyncTypebox = async (app) => {
  app.post(paths.app.Login, { schema: appLoginSchema, config: { envelope: 'app' } }, async (request, reply) =>
    webSuccess(await passwordSignIn(app, request, reply, request.body)),
  );
};

export default login;
