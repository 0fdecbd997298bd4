import type { Kysely } from 'kysely';
import type { CancellationRegistry } from '../cancellation/registry';
import type { OpenAuthDatabase } from './adapter';

/**
 * On erasure, every app the person authorised loses its access (grants with their codes and tokens)
 * and the provider forgets their sessions; apps they registered are deleted with them.
 */
export function addOpenAuthCancelRules(registry: CancellationRegistry): void {
  registry.addEraser({
    key: 'open_auth_records',
    erase: async (trx, userId) => {
      await revokeOpenAuthOf(trx, userId);
    },
  });
}

/**
 * Every grant, token and session the OpenID provider keeps for a person, through the caller's
 * transaction: an erasure, and a freeze by the management API (a banned account's apps lose access).
 */
export async function revokeOpenAuthOf<DB>(
  trx: Kysely<DB>,
  userId: string,
): Promise<{ clientId: string; appName: string }[]> {
  const db = trx as unknown as Kysely<OpenAuthDatabase>;
  const grants = await db
    .selectFrom('open_auth_records')
    .select(['id', 'client_id'])
    .where('model', '=', 'Grant')
    .where('account_id', '=', userId)
    .execute();
  const ids = grants.map((g) => g.id);
  // The apps that held an authorisation, once each, named before their records may go.
  const clients = [...new Set(grants.flatMap((g) => (g.client_id ? [g.client_id] : [])))].sort();
  const apps = [];
  for (const clientId of clients) apps.push({ clientId, appName: await appNameOf(trx, clientId) });
  if (ids.length) await db.deleteFrom('open_auth_records').where('grant_id', 'in', ids).execute();
  await db.deleteFrom('open_auth_records').where('account_id', '=', userId).execute();
  return apps;
}

/**
 * Every grant of one person to one app, with its codes and tokens, through the caller's transaction;
 * answers how many grants there were.
 */
export async function revokeAppOf<DB>(trx: Kysely<DB>, userId: string, clientId: string): Promise<number> {
  const db = trx as unknown as Kysely<OpenAuthDatabase>;
  const grants = await db
    .selectFrom('open_auth_records')
    .select('id')
    .where('model', '=', 'Grant')
    .where('account_id', '=', userId)
    .where('client_id', '=', clientId)
    .execute();
  const ids = grants.map((g) => g.id);
  if (!ids.length) return 0;
  await db.deleteFrom('open_auth_records').where('grant_id', 'in', ids).execute();
  await db.deleteFrom('open_auth_records').where('model', '=', 'Grant').where('id', 'in', ids).execute();
  return ids.length;
}

/** An app's name for an event (its client_key when it has none or is gone). */
export async function appNameOf<DB>(trx: Kysely<DB>, clientId: string): Promise<string> {
  const db = trx as unknown as Kysely<OpenAuthDatabase>;
  const row = await db
    .selectFrom('open_auth_records')
    .select('payload')
    .where('model', '=', 'Client')
    .where('id', '=', clientId)
    .executeTakeFirst();
  const name = row ? (JSON.parse(row.payload) as { client_name?: unknown }).client_name : undefined;
  return typeof name === 'string' && name ? name : clientId;
}
