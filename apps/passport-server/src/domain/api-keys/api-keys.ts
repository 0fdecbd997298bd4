import { API_KEY_PREFIX, type ApiScope } from '@portico/management/protocol';
import type { Kysely, Selectable } from 'kysely';
import type { ApiKeysTable, Database } from '../../db/schema';
import { hmac, randomToken } from '../../lib/crypto';

export type ApiKeyRow = Selectable<ApiKeysTable>;

/**
 * A new key: the recognisable prefix and 32 random bytes. Only its HMAC is stored (a key is as strong
 * as a random token, so a keyed hash, not a slow one, is what keeps a leaked table from being keys).
 */
export function newApiKey(secret: Buffer): { key: string; prefix: string; secretHash: string } {
  const key = `${API_KEY_PREFIX}${randomToken(32)}`;
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + 4), secretHash: hashApiKey(secret, key) };
}

export const hashApiKey = (secret: Buffer, key: string): string => hmac(secret, `api-key|${key}`);

/** A key that works now: known, not revoked, not past its expiry. */
export async function usableKey(
  db: Kysely<Database>,
  secret: Buffer,
  key: string,
  now: number,
): Promise<ApiKeyRow | undefined> {
  if (!key.startsWith(API_KEY_PREFIX) || key.length > 200) return undefined;
  const row = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('secret_hash', '=', hashApiKey(secret, key))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) return undefined;
  return row;
}

/** Last use is kept to the minute: a busy key does not write on every call. */
export async function touchKey(db: Kysely<Database>, row: ApiKeyRow, now: number): Promise<void> {
  if (row.last_used_at !== null && now - row.last_used_at < 60_000) return;
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', row.id).execute();
}

export const scopesOf = (row: ApiKeyRow): ApiScope[] => JSON.parse(row.scopes) as ApiScope[];

/** What a key's listing shows: never the key or its hash. */
export const publicKey = (row: ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: scopesOf(row),
  created_at: row.created_at,
  expires_at: row.expires_at,
  last_used_at: row.last_used_at,
  revoked_at: row.revoked_at,
});
