import { Type } from 'typebox';
import { appNameOf, revokeAppOf } from '../../domain/open-auth/cancellation';
import { PassportError } from '../../errors';
import { caller, defineOperation } from '../define';
import { emitForAccount } from './emit';

/**
 * The apps a person authorises through the OpenID provider (docs/open-authorization.md): consent given
 * on Portico's consent page, and an app revoked under "Authorised apps". The request's side
 * (src/flows/open-auth.ts) builds the provider's grant; the adapter saves it in this operation's
 * transaction (`within`), so the grant and its event commit together.
 */

export const authorizeOpenApp = defineOperation({
  name: 'account.open_app.authorize',
  input: Type.Object({
    client_id: Type.String({ minLength: 1 }),
    app_name: Type.String(),
    scopes: Type.Array(Type.String()),
    refused: Type.Array(Type.String()),
  }),
  output: Type.Object({}),
  caller: caller.person,
  emits: ['account.app_authorized'],
  async run(ctx, input) {
    emitForAccount(ctx, 'account.app_authorized', {
      clientId: input.client_id,
      appName: input.app_name,
      scopes: input.scopes,
      refused: input.refused,
    });
    return {};
  },
});

/**
 * Revokes an app for the person: every grant of theirs to it, with its codes and tokens. The next
 * request of the app asks for consent again. An app they never authorised answers NOT_AUTHORIZED.
 */
export const revokeOpenApp = defineOperation({
  name: 'account.open_app.revoke',
  input: Type.Object({ client_key: Type.String({ minLength: 1 }) }),
  output: Type.Object({}),
  caller: caller.person,
  emits: ['account.app_revoked'],
  async run(ctx, input) {
    const appName = await appNameOf(ctx.tx, input.client_key);
    const revoked = await revokeAppOf(ctx.tx, ctx.caller.user.id, input.client_key);
    if (!revoked) throw new PassportError('openNotAuthorized');
    emitForAccount(ctx, 'account.app_revoked', { clientId: input.client_key, appName, reason: 'revoked' });
    return {};
  },
});
