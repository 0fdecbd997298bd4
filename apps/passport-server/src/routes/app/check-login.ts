import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { checkLogin as check } from '../../flows/check-login';
import { paths, webSuccess } from '../../protocol';
import { checkLoginSchema } from '../../schemas/app';

/** GET /CheckLogin: `{is_login: false}` without a session is an answer, not a failure. */
const checkLogin: FastifyPluginAsyncTypebox = async (app) => {
  app.get(paths.app.CheckLogin, { schema: checkLoginSchema, config: { envelope: 'app' } }, async (request) =>
    webSuccess(check(request)),
  );
};

export default checkLogin;
