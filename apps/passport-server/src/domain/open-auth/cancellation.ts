import type { Kysely } from 'kysely';
import type { CancellationRegistry } from '../cancellation/registry';
import type { OpenAuthDatabase } from './adapter';

/**
 * On erasure, every app the person authorised loses its access (grants with their codes and tokens)
 * and the provider forgets their sessions; apps they registered are deleted with them.
 */
export function addOpenAuthCancelRules(registry: CancellationRegistry): void {
  registry.addEraser({ key: 'open_auth_records', erase: revokeOpenAuthOf });
}

/**
 * Every grant, token and session the OpenID provider keeps for a person, through the caller's
 * transaction: an erasure, and a freeze by the management API (a banned account's apps lose access).
 */
export async function revokeOpenAuthOf(trx: Kysely<unknown>, userId: string): Promise<void> {
  const db = trx as unknown as Kysely<OpenAuthDatabase>;
  const grants = await db
    .selectFrom('open_auth_records')
    .select('id')
    .where('model', '=', 'Grant')
    .where('account_id', '=', userId)
    .execute();
  const ids = grants.map((g) => g.id);
  if (ids.length) await db.deleteFrom('open_auth_records').where('grant_id', 'in', ids).execute();
  await db.deleteFrom('open_auth_records').where('account_id', '=', userId).execute();
}
