import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { onPostgres } from '../../db/dialect';
import type { Database, PasskeyRow } from '../../db/schema';
import { PassportError } from '../../errors';

/** The account's passkeys in the database (docs/factors.md); every function takes the transaction. */

/** How many passkeys one account may hold. */
export const PASSKEYS_PER_ACCOUNT = 20;

/** A passkey as the account's list shows it. */
export interface PasskeyView {
  id: string;
  name: string;
  device_type: 'singleDevice' | 'multiDevice';
  backed_up: boolean;
  transports: string[];
  created_at: number;
  last_used_at: number | null;
}

export const passkeyView = (row: PasskeyRow): PasskeyView => ({
  id: row.id,
  name: row.name,
  device_type: row.device_type === 'multiDevice' ? 'multiDevice' : 'singleDevice',
  backed_up: Number(row.backed_up) === 1,
  transports: JSON.parse(row.transports) as string[],
  created_at: Number(row.created_at),
  last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
});

/**
 * The account's WebAuthn user handle: 32 random bytes (base64url), made at its first registration and
 * the same for all its passkeys. It names nobody: an authenticator stores it, and a sign-in finds the
 * account by its credential id, the handle confirming it.
 */
export async function userHandleOf(tx: Kysely<Database>, userId: string, now: number): Promise<string> {
  const found = await tx
    .selectFrom('passkey_user_handles')
    .select('handle')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (found) return found.handle;
  const handle = randomBytes(32).toString('base64url');
  // Two registrations started at once: the first row stays, the second reads it.
  await tx
    .insertInto('passkey_user_handles')
    .values({ user_id: userId, handle, created_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const row = await tx
    .selectFrom('passkey_user_handles')
    .select('handle')
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.handle;
}

export const passkeysOf = (tx: Kysely<Database>, userId: string) =>
  tx
    .selectFrom('passkeys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** The passkey with this credential id, and its account's user handle; undefined when none. */
export const passkeyByCredential = (tx: Kysely<Database>, credentialId: string) =>
  tx
    .selectFrom('passkeys')
    .innerJoin('passkey_user_handles', 'passkey_user_handles.user_id', 'passkeys.user_id')
    .selectAll('passkeys')
    .select('passkey_user_handles.handle')
    .where('passkeys.credential_id', '=', credentialId)
    .executeTakeFirst();

/** One of the account's own passkeys, or PASSKEY_NOT_FOUND (another account's is not found either). */
export async function ownPasskey(tx: Kysely<Database>, userId: string, id: string): Promise<PasskeyRow> {
  const row = await tx
    .selectFrom('passkeys')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new PassportError('passkeyNotFound');
  return row;
}

const isUniqueViolation = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
};

/** Stores a verified registration; the same credential twice is PASSKEY_ALREADY_REGISTERED. */
export async function insertPasskey(tx: Kysely<Database>, row: PasskeyRow): Promise<void> {
  try {
    await tx.insertInto('passkeys').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new PassportError('passkeyAlreadyRegistered');
    throw error;
  }
}

/**
 * Holds the account's row until the commit (PostgreSQL; SQLite runs one writer at a time): two removals
 * at once must not each count the other's passkey as the way in that remains.
 */
export async function lockAccount(tx: Kysely<Database>, userId: string): Promise<void> {
  if (onPostgres(tx))
    await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

/**
 * Whether the account keeps a way in without the passkey `without`: a mobile or an e-mail (a code), a
 * username with a password, a linked third-party identity, or another passkey.
 */
export async function keepsAWayInWithout(
  tx: Kysely<Database>,
  userId: string,
  without: string,
): Promise<boolean> {
  // Read through the transaction (after lockAccount): the account as it is now, not as the session saw it.
  const user = await tx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.mobile || user.email || (user.username && user.password_hash)) return true;
  const linked = await tx
    .selectFrom('linked_identities')
    .select('id')
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (linked) return true;
  const other = await tx
    .selectFrom('passkeys')
    .select('id')
    .where('user_id', '=', user.id)
    .where('id', '!=', without)
    .executeTakeFirst();
  return other !== undefined;
}
