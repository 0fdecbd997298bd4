import { operationRoute, principalOf } from '../../adapters/operation-route';
import { CEREMONY_TTL_MS } from '../../domain/passkeys/ceremony';
import { PassportError } from '../../errors';
import { completeSignIn } from '../../flows/complete-sign-in';
import { rateLimitKey } from '../../lib/ip';
import {
  listPasskeys,
  passkeyLogin,
  passkeyLoginOptions,
  passkeyRegister,
  passkeyRegisterOptions,
  removePasskey,
  renamePasskey,
} from '../../operations/account/passkeys';
import { passkeyPaths } from '../../protocol';
import { AccountInfo } from '../../schemas/account';
import { schema } from '../../schemas/passkeys';

/**
 * Passkeys (docs/factors.md): the operations of src/operations/account/passkeys at Portico's own paths
 * (`/passport/passkey/…`, web envelope). A passkey sign-in ends in completeSignIn like every sign-in.
 */

export const passkeyRegisterOptionsRoute = operationRoute(passkeyRegisterOptions, {
  method: 'POST',
  schema: schema.registerOptions,
  at: [['passport', passkeyPaths.registerOptions]],
});

export const passkeyRegisterRoute = operationRoute(passkeyRegister, {
  method: 'POST',
  schema: schema.registerVerify,
  at: [['passport', passkeyPaths.registerVerify]],
});

/** Sign-in challenges one client address may ask for in a challenge's lifetime (each is kept that long). */
export const PASSKEY_OPTIONS_PER_IP = 100;

export const passkeyLoginOptionsRoute = operationRoute(passkeyLoginOptions, {
  method: 'POST',
  schema: schema.loginOptions,
  at: [['passport', passkeyPaths.loginOptions]],
  // Anyone may ask, and each challenge is kept in the store: a cap per address keeps a flood from
  // filling it.
  principal: async (app, request) => {
    const asked = await app.store.incr(`passkey:options:${rateLimitKey(request.ip)}`, CEREMONY_TTL_MS);
    if (asked > PASSKEY_OPTIONS_PER_IP) throw new PassportError('rateLimited');
    return principalOf(request);
  },
});

export const passkeyLoginRoute = operationRoute(passkeyLogin, {
  method: 'POST',
  schema: schema.loginVerify,
  at: [['passport', passkeyPaths.loginVerify]],
  data: AccountInfo,
  // The passkey is proven and its counter kept; the sign-in itself is completeSignIn's.
  after: async (app, request, reply, { output }) => {
    const user = await app.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', output.user_id)
      .executeTakeFirstOrThrow();
    return completeSignIn(app, request, reply, user, { newUser: false, proof: 'passkey' });
  },
});

export const passkeyListRoute = operationRoute(listPasskeys, {
  method: 'GET',
  schema: schema.list,
  at: [['passport', passkeyPaths.list]],
  input: () => ({}),
});

export const passkeyRenameRoute = operationRoute(renamePasskey, {
  method: 'POST',
  schema: schema.rename,
  at: [['passport', passkeyPaths.rename]],
});

export const passkeyRemoveRoute = operationRoute(removePasskey, {
  method: 'POST',
  schema: schema.remove,
  at: [['passport', passkeyPaths.remove]],
});

export const PASSKEY_ROUTES = [
  passkeyRegisterOptionsRoute,
  passkeyRegisterRoute,
  passkeyLoginOptionsRoute,
  passkeyLoginRoute,
  passkeyListRoute,
  passkeyRenameRoute,
  passkeyRemoveRoute,
];
