import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { PasskeyConfig } from '../../config';
import type { Database } from '../../db/schema';
import { PassportError } from '../../errors';
import { assertOrigin, verifyAuthentication } from './ceremony';
import { passkeyByCredential } from './passkeys';

/**
 * The one check of a passkey's assertion, for a sign-in (src/operations/account/passkeys.ts) and for a
 * passkey as a factor (./factor.ts), once the caller has taken the challenge it answers: from a
 * configured origin, by a passkey this server holds (of `userId`'s account, when the caller knows the
 * account), whose account the authenticator's user handle names; the signature verified, then its
 * counter moves forward, written only where it still holds the value read (of two sign-ins with the
 * same counter at once, the second finds it moved). Answers the passkey's row.
 */
export async function proveAssertion(
  db: Kysely<Database>,
  config: PasskeyConfig,
  response: AuthenticationResponseJSON,
  client: { challenge: string; origin: string },
  options: { userId?: string; now: number },
) {
  assertOrigin(config, client.origin);
  const passkey = await passkeyByCredential(db, response.id);
  if (!passkey || (options.userId !== undefined && passkey.user_id !== options.userId))
    throw new PassportError('passkeyUnknown');
  // The authenticator names the account it made the passkey for: it must be the account we hold it for.
  if (response.response.userHandle !== undefined && response.response.userHandle !== passkey.handle)
    throw new PassportError('passkeyVerificationFailed');
  const info = await verifyAuthentication(config, response, client.challenge, {
    id: passkey.credential_id,
    publicKey: passkey.public_key,
    counter: Number(passkey.counter),
  });
  const moved = await db
    .updateTable('passkeys')
    .set({
      counter: info.newCounter,
      backed_up: info.credentialBackedUp ? 1 : 0,
      device_type: info.credentialDeviceType,
      last_used_at: options.now,
    })
    .where('id', '=', passkey.id)
    .where('counter', '=', passkey.counter)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new PassportError('passkeyCounterRegressed');
  return passkey;
}
