import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountWithIdentity } from '../../flows/identity-sign-in';
import { paths, webSuccess } from '../../protocol';
import { getUserInfoSchema } from '../../schemas/app';

/** GET /GetUserInfo: the same account view as account/info (with the active identity), or NOT_LOGGED_IN. */
const userInfo: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    paths.app.GetUserInfo,
    { schema: getUserInfoSchema, config: { envelope: 'app' } },
    async (request) => webSuccess(await accountWithIdentity(app, request)),
  );
};

export default userInfo;
