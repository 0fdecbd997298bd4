import { operationRoute, principalOf } from '../../adapters/operation-route';
import { clientLaneOf } from '../../domain/codes/codes';
import { CEREMONY_TTL_MS } from '../../domain/passkeys/ceremony';
import { passkeyFactorOptions } from '../../domain/passkeys/factor';
import { pendingSignIn } from '../../domain/second-verify/pending';
import { requireSession } from '../../domain/sessions/sessions';
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
import { PasskeyOptions, schema } from '../../schemas/passkeys';
import { flowRoute } from '../declare';

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

/**
 * factor/options: a challenge to prove one of the account's passkeys as a factor (src/domain/passkeys/
 * factor.ts), for the pending second verification of `sms_code_key` (its browser only) or the
 * signed-in account's step-up; answered through `sms_login_continue` / `auth/verify` with
 * `method: passkey` and `credential`.
 */
export const passkeyFactorOptionsRoute = flowRoute({
  method: 'POST',
  schema: schema.factorOptions,
  data: PasskeyOptions,
  at: [['passport', passkeyPaths.factorOptions]],
  run: async (app, request) => {
    const key = request.body.sms_code_key;
    const userId = key ? (await pendingSignIn(app, request, key)).userId : requireSession(request).userId;
    return passkeyFactorOptions(app, userId, clientLaneOf(app, request));
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
  passkeyFactorOptionsRoute,
  passkeyListRoute,
  passkeyRenameRoute,
  passkeyRemoveRoute,
];
