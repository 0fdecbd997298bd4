import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signedInAccount } from '../../flows/sign-in';
import { paths, webSuccess } from '../../protocol';
import { accountInfoSchema } from '../../schemas/account';

/** GET account/info: the signed-in account, or NOT_LOGGED_IN. */
const account: FastifyPluginAsyncTypebox = async (app) => {
  // Synchronous: the session was resolved by the sessions hook; nothing here waits.
  app.get(paths.web.accountInfo, { schema: accountInfoSchema }, (request) =>
    webSuccess(signedInAccount(request)),
  );
};

export default account;
