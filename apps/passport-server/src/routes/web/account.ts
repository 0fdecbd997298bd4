import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signedInAccount } from '../../flows/sign-in';
import { paths, webSuccess } from '../../protocol';
import { accountInfoSchema } from '../../schemas/account';

/** GET account/info: the signed-in account, or NOT_LOGGED_IN. */
const account: FastifyPluginAsyncTypebox = async (app) => {
  app.get(paths.web.accountInfo, { schema: accountInfoSchema }, async (request) =>
    webSuccess(signedInAccount(request)),
  );
};

export default account;
