import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { PassportError } from '../../errors';
import { proveAssertion } from './assertion';
import { CEREMONY_TTL_MS, clientDataOf, factorOptions, parseAuthentication } from './ceremony';
import { passkeysOf } from './passkeys';

/**
 * A passkey as a factor (docs/factors.md, "Passkeys as a factor"): it answers a second verification
 * (2046) and a step-up (2047) of the account that holds it. The options name the account's passkeys
 * and keep their challenge for that account AND the browser that asked; the answer must come from
 * that browser, for that account, signed by one of its passkeys.
 */

/** The store key of a factor ceremony's challenge (single use, with expiry). */
export const factorChallengeKey = (challenge: string) => `passkey:factor:${challenge}`;

/** What the challenge is kept with: the account and the browser (`clientLaneOf`) it was issued to. */
const holderOf = (userId: string, client: string) => `${userId}|${client}`;

/** Whether the account has a passkey (the factor's `has`). */
export async function hasPasskey(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('passkeys')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Options to prove the account's passkey from this browser; FACTOR_UNAVAILABLE without one. */
export async function passkeyFactorOptions(app: FastifyInstance, userId: string, client: string) {
  const passkeys = await passkeysOf(app.db, userId);
  if (passkeys.length === 0) throw new PassportError('factorUnavailable');
  const options = await factorOptions(app.config.passkeys, passkeys);
  await app.store.set(factorChallengeKey(options.challenge), holderOf(userId, client), CEREMONY_TTL_MS);
  return { options, expires_in: CEREMONY_TTL_MS / 1000 };
}

/**
 * The factor's `verify`: the assertion in `credential` answers a challenge issued to this account in
 * this browser (taken, so answered once), then the assertion's one check (./assertion.ts) for one of
 * the account's passkeys.
 */
export async function provePasskey(
  app: FastifyInstance,
  userId: string,
  proof: { credential?: unknown; client?: unknown },
): Promise<void> {
  if (typeof proof.credential !== 'string') throw new PassportError('invalidParam', { field: 'credential' });
  const response = parseAuthentication(proof.credential);
  const client = clientDataOf(response);
  const holder = await app.store.take(factorChallengeKey(client.challenge));
  if (holder === null || holder !== holderOf(userId, typeof proof.client === 'string' ? proof.client : ''))
    throw new PassportError('passkeyChallengeInvalid');
  await proveAssertion(app.db, app.config.passkeys, response, client, { userId, now: app.runtime.now() });
}
