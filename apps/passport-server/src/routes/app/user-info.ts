import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signedInAccount } from '../../flows/check-login';
import { paths, webSuccess } from '../../protocol';
import { getUserInfoSchema } from '../../schemas/app';

/** GET /GetUserInfo: the same account view as account/info, or NOT_LOGGED_IN. */
const userInfo: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    paths.app.GetUserInfo,
    { schema: getUserInfoSchema, config: { envelope: 'app' } },
    async (request) => webSuccess(signedInAccount(request)),
  );
};

export default userInfo;
