import { signedInAccount } from '../../flows/check-login';
import { paths } from '../../protocol';
import { AccountInfo, accountInfoSchema } from '../../schemas/account';
import { flowRoute } from '../declare';

/** account/info (also the sso flavour's and v2): the signed-in account, or NOT_LOGGED_IN. */
export const accountInfo = flowRoute({
  method: 'GET',
  schema: accountInfoSchema,
  data: AccountInfo,
  at: [
    ['web', paths.web.accountInfo],
    ['sso', paths.sso.accountInfo],
    ['passport', paths.passport.accountInfoV2],
  ],
  // Synchronous: the session was resolved by the sessions hook; nothing here waits.
  run: (_app, request) => signedInAccount(request),
});
