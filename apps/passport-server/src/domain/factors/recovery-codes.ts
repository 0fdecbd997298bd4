import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { PassportError } from '../../errors';
import { hmac } from '../../lib/crypto';
import { lockAccount } from '../passkeys/passkeys';

/**
 * Recovery codes: ten per account, for when its other factors are out of reach (a lost phone). Each is
 * ten characters of a 31-letter alphabet without look-alikes (about 49 bits), shown as `xxxxx-xxxxx`,
 * once; only an HMAC of the user id and the normalised code (keyed by the server secret) is stored.
 * One conditional UPDATE spends a code, so of concurrent uses of one code exactly one succeeds.
 * Generating a new set deletes the old one.
 */

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 10;

/** Lower case, without spaces and dashes: what is hashed. */
export const normaliseRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]+/g, '');

const hashOf = (secret: Buffer, userId: string, code: string) =>
  hmac(secret, `recovery-code|${userId}|${normaliseRecoveryCode(code)}`);

function newCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(0, ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A new set of codes for the account, replacing the old one; answers the codes (shown once). */
export async function generateRecoveryCodes(
  db: Kysely<Database>,
  secret: Buffer,
  userId: string,
  now: number,
): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newCode());
  // Two generations at once must not leave both sets (twenty codes, ten never shown): one after the other.
  await lockAccount(db, userId);
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(
      [...codes].map((code) => ({
        code_hash: hashOf(secret, userId, code),
        user_id: userId,
        created_at: now,
      })),
    )
    .execute();
  return [...codes];
}

/** How many codes the account has, how many are unused, and when the set was made (null: none). */
export async function recoveryCodeStatus(
  db: Kysely<Database>,
  userId: string,
): Promise<{ total: number; remaining: number; createdAt: number | null }> {
  const rows = await db
    .selectFrom('recovery_codes')
    .select(['used_at', 'created_at'])
    .where('user_id', '=', userId)
    .execute();
  return {
    total: rows.length,
    remaining: rows.filter((row) => row.used_at === null).length,
    createdAt: rows.length ? Math.max(...rows.map((row) => Number(row.created_at))) : null,
  };
}

/** Whether the account has an unused recovery code. */
export async function hasRecoveryCodes(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('recovery_codes')
    .select('code_hash')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Spends one of the account's unused codes; CODE_WRONG when it is not one (never one, or used).
 */
export async function useRecoveryCode(
  db: Kysely<Database>,
  secret: Buffer,
  userId: string,
  code: string,
  now: number,
): Promise<void> {
  const normalised = normaliseRecoveryCode(code);
  if (normalised.length !== LENGTH || ![...normalised].every((c) => ALPHABET.includes(c)))
    throw new PassportError('codeWrong');
  const spent = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('code_hash', '=', hashOf(secret, userId, normalised))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw new PassportError('codeWrong');
}

/** Deletes the account's codes. */
export async function removeRecoveryCodes(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}
