import { accountWithIdentity } from '../../flows/identity-sign-in';
import { paths } from '../../protocol';
import { AccountInfo, accountInfoSchema, plaintextAsked } from '../../schemas/account';
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
  // Synchronous for a personal session: it was resolved by the sessions hook, nothing here waits. An
  // organisation identity's subject and permissions are read (flows/identity-sign-in).
  run: (app, request) => accountWithIdentity(app, request, plaintextAsked(request.query.need_plaintext)),
});
