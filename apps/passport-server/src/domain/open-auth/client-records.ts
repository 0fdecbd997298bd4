import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from '../../db/schema';
import type { DeveloperApp } from '../../schemas/developer-apps';
import type { OpenAuthDatabase } from './adapter';

/**
 * The developer console's reads and writes of the OpenID provider's client records, through the
 * database handle or an operation's transaction. A client is stored as the provider's own adapter
 * stores it (src/domain/open-auth/adapter.ts, model `Client`, no expiry), so a registered app is a
 * client the provider serves like one registered through RFC 7591.
 */

/** A client's metadata as the provider keeps it, with the console's owner (none for the deployment's own). */
export interface ClientMetadata {
  client_id: string;
  client_secret: string;
  client_name: string;
  logo_uri?: string;
  redirect_uris: string[];
  scope: string;
  portico_owner?: string;
  client_id_issued_at: number;
  [key: string]: unknown;
}

/** Scopes every client holds for the provider's own workings, never shown as an app's scopes. */
const PLUMBING = new Set(['openid', 'offline_access']);

const recordsIn = (db: Kysely<Database>) => db as unknown as Kysely<OpenAuthDatabase>;

export function appView(metadata: ClientMetadata, authorizedCount: number): DeveloperApp {
  return {
    client_key: metadata.client_id,
    app_name: metadata.client_name,
    app_icon: metadata.logo_uri ?? '',
    redirect_uris: metadata.redirect_uris,
    scopes: metadata.scope.split(/\s+/).filter((name) => name !== '' && !PLUMBING.has(name)),
    created_at: metadata.client_id_issued_at * 1000,
    authorized_count: authorizedCount,
  };
}

/** The person's own client, or undefined (another person's app is none of theirs). */
export async function ownClient(
  db: Kysely<Database>,
  userId: string,
  clientKey: string,
): Promise<ClientMetadata | undefined> {
  const row = await recordsIn(db)
    .selectFrom('open_auth_records')
    .select('payload')
    .where('model', '=', 'Client')
    .where('id', '=', clientKey)
    .where('account_id', '=', userId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.payload) as ClientMetadata) : undefined;
}

/** The person's clients, newest first. */
export async function clientsOf(db: Kysely<Database>, userId: string): Promise<ClientMetadata[]> {
  const rows = await recordsIn(db)
    .selectFrom('open_auth_records')
    .select(['id', 'payload'])
    .where('model', '=', 'Client')
    .where('account_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => JSON.parse(row.payload) as ClientMetadata);
}

/** Any client by its id, whoever owns it (the management API's apps), or undefined. */
export async function clientById(
  db: Kysely<Database>,
  clientKey: string,
): Promise<ClientMetadata | undefined> {
  const row = await recordsIn(db)
    .selectFrom('open_auth_records')
    .select('payload')
    .where('model', '=', 'Client')
    .where('id', '=', clientKey)
    .executeTakeFirst();
  return row ? (JSON.parse(row.payload) as ClientMetadata) : undefined;
}

/**
 * Every client, whoever owns it, newest first (`created_at`, then `id`, descending): `limit` of them
 * after a page's position (`after`, a condition on those two columns).
 */
export async function clientPage(db: Kysely<Database>, limit: number, after?: RawBuilder<boolean>) {
  let query = recordsIn(db)
    .selectFrom('open_auth_records')
    .select(['id', 'payload', 'created_at'])
    .where('model', '=', 'Client');
  if (after) query = query.where(after);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((row) => ({
    id: row.id,
    created_at: row.created_at,
    metadata: JSON.parse(row.payload) as ClientMetadata,
  }));
}

/** How many clients the person owns. */
export async function clientCount(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await recordsIn(db)
    .selectFrom('open_auth_records')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('model', '=', 'Client')
    .where('account_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many people have a live authorisation (a grant) of each of these apps; absent means none. */
export async function authorizedCounts(
  db: Kysely<Database>,
  clientKeys: readonly string[],
): Promise<Map<string, number>> {
  if (clientKeys.length === 0) return new Map();
  const rows = await recordsIn(db)
    .selectFrom('open_auth_records')
    .select((eb) => ['client_id', eb.fn.count<number>('account_id').distinct().as('people')])
    .where('model', '=', 'Grant')
    .where('client_id', 'in', clientKeys)
    .groupBy('client_id')
    .execute();
  return new Map(rows.map((row) => [row.client_id ?? '', Number(row.people)]));
}

/** Stores a client's metadata as the provider's adapter does (an upsert of model Client, no expiry). */
export async function storeClient(db: Kysely<Database>, metadata: ClientMetadata, now: number) {
  const values = {
    payload: JSON.stringify(metadata),
    grant_id: null,
    uid: null,
    account_id: metadata.portico_owner ?? null,
    client_id: metadata.client_id,
    expires_at: null,
  };
  await recordsIn(db)
    .insertInto('open_auth_records')
    .values({ model: 'Client', id: metadata.client_id, ...values, consumed_at: null, created_at: now })
    .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(values))
    .execute();
}

/** Deletes a client with every grant, code and token issued to it. */
export async function deleteClient(db: Kysely<Database>, clientKey: string) {
  await recordsIn(db).deleteFrom('open_auth_records').where('client_id', '=', clientKey).execute();
  await recordsIn(db)
    .deleteFrom('open_auth_records')
    .where('model', '=', 'Client')
    .where('id', '=', clientKey)
    .execute();
}
