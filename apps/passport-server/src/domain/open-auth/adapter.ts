/// <reference path="./oidc-provider.d.ts" />
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';

/** Times are milliseconds since the epoch, as in every other table (migration 0014). */
export interface OpenAuthRecordsTable {
  /** The provider's model: Client, Grant, AuthorizationCode, AccessToken, RefreshToken, Session, Interaction, … */
  model: string;
  id: string;
  /** The provider's payload as JSON. */
  payload: string;
  /** The grant a code or token belongs to: revoking the grant deletes them all. */
  grant_id: string | null;
  /** A provider session's uid (findByUid); a device code's user code (findByUserCode). */
  uid: string | null;
  /** The person: a grant's or token's account; a registered client's owner. */
  account_id: string | null;
  client_id: string | null;
  /** null: lives until deleted (a registered client). */
  expires_at: number | null;
  /** When a code or refresh token was used, by one atomic conditional update. */
  consumed_at: number | null;
  created_at: number;
}

export interface OpenAuthDatabase {
  open_auth_records: OpenAuthRecordsTable;
}

/**
 * The transaction the provider's models write through while it is set (`recordsWithin`): an
 * operation's `within` saves a grant the provider built in the operation's own transaction, so the
 * grant commits with the operation's event or not at all.
 */
const boundTransaction = new AsyncLocalStorage<Kysely<OpenAuthDatabase>>();

/** Runs `work` with every write of the provider's models going through `trx`. */
export function recordsWithin<T, DB>(trx: Kysely<DB>, work: () => Promise<T>): Promise<T> {
  return boundTransaction.run(trx as unknown as Kysely<OpenAuthDatabase>, work);
}

/** The models whose records carry a grant id. */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode']);

/**
 * The OpenID provider's storage adapter on the server's database (SQLite or PostgreSQL, whichever the
 * deployment runs; with Redis as the store, the database still holds these records because a grant,
 * a client and a refresh token must outlive a cache). One class per model, as the provider expects.
 *
 * `consume` is the one place the provider's own check-then-set is not atomic: two concurrent
 * redemptions of one code both see it unused. Here it is a conditional UPDATE; the loser revokes the
 * whole grant (the codes and tokens the winner got, and the grant row, so even a token written after
 * this point is refused where the provider looks the grant up) and answers invalid_grant.
 */
export function adapterClass(appDb: Kysely<OpenAuthDatabase>, now: () => number) {
  const table = 'open_auth_records' as const;
  const handle = () => boundTransaction.getStore() ?? appDb;

  async function revokeGrant(grantId: string): Promise<void> {
    await handle().deleteFrom(table).where('grant_id', '=', grantId).execute();
    await handle().deleteFrom(table).where('model', '=', 'Grant').where('id', '=', grantId).execute();
  }

  return class DatabaseAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const t = now();
      const values = {
        payload: JSON.stringify(payload),
        grant_id: GRANTABLE.has(this.model) ? (payload.grantId ?? null) : null,
        // A device code is looked up by the user code the person types (RFC 8628), held in `uid`.
        uid:
          typeof payload.uid === 'string'
            ? payload.uid
            : typeof payload.userCode === 'string'
              ? payload.userCode
              : null,
        account_id:
          (payload.accountId as string | undefined) ??
          (typeof payload.portico_owner === 'string' ? payload.portico_owner : null),
        client_id: payload.clientId ?? payload.client_id ?? null,
        expires_at: typeof expiresIn === 'number' ? t + expiresIn * 1000 : null,
      };
      await handle()
        .insertInto(table)
        .values({ model: this.model, id, ...values, consumed_at: null, created_at: t })
        .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(values))
        .execute();
    }

    async row(where: 'id' | 'uid', value: string): Promise<AdapterPayload | undefined> {
      const row = await handle()
        .selectFrom(table)
        .select(['payload', 'expires_at', 'consumed_at'])
        .where('model', '=', this.model)
        .where(where, '=', value)
        .executeTakeFirst();
      if (!row || (row.expires_at !== null && Number(row.expires_at) <= now())) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      if (row.consumed_at !== null) payload.consumed = Math.floor(Number(row.consumed_at) / 1000);
      return payload;
    }

    find(id: string) {
      return this.row('id', id);
    }

    findByUid(uid: string) {
      return this.row('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.row('uid', userCode);
    }

    async consume(id: string): Promise<void> {
      const result = await handle()
        .updateTable(table)
        .set({ consumed_at: now() })
        .where('model', '=', this.model)
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return;
      const row = await handle()
        .selectFrom(table)
        .select('grant_id')
        .where('model', '=', this.model)
        .where('id', '=', id)
        .executeTakeFirst();
      if (row?.grant_id) await revokeGrant(row.grant_id);
      throw new errors.InvalidGrant(`${this.model} already consumed`);
    }

    async destroy(id: string): Promise<void> {
      await handle().deleteFrom(table).where('model', '=', this.model).where('id', '=', id).execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await revokeGrant(grantId);
    }
  };
}

/** Deletes expired records (housekeeping). */
export async function sweepOpenAuthRecords(db: Kysely<OpenAuthDatabase>, at: number): Promise<void> {
  await db.deleteFrom('open_auth_records').where('expires_at', '<=', at).execute();
}
