import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Writing a password hash and what goes with a new password, through the operation's transaction: the
 * account's sessions end and its remembered devices are forgotten (SECURITY.md: a password reset kills
 * server state; a remembered device must not skip the second verification with the new password).
 */

/** Replaces the account's password hash. */
export async function storePasswordHash(db: Kysely<Database>, userId: string, hash: string, now: number) {
  await db
    .updateTable('users')
    .set({ password_hash: hash, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Sets a first password hash: false when the account has one (also when a concurrent set won). */
export async function storeFirstPasswordHash(
  db: Kysely<Database>,
  userId: string,
  hash: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_hash: hash, updated_at: now })
    .where('id', '=', userId)
    .where('password_hash', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends every session of the account; answers how many ended. */
export async function endSessions(db: Kysely<Database>, userId: string): Promise<number> {
  const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Forgets the account's remembered devices, all of them or all but the one whose token hash is `keep`
 * (the browser that proved the current password or a code to change it); answers how many.
 */
export async function forgetDevices(
  db: Kysely<Database>,
  userId: string,
  keep: string | null,
): Promise<number> {
  let query = db.deleteFrom('devices').where('user_id', '=', userId);
  if (keep !== null) query = query.where('token_hash', '!=', keep);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
