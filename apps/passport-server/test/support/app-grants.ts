import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema';

/** The provider's own records (oidc-provider's models), which the app's schema does not type. */
interface OpenAuthRecords {
  open_auth_records: {
    model: string;
    id: string;
    payload: string;
    grant_id: string | null;
    account_id: string | null;
    client_id?: string | null;
    created_at: number;
  };
}

/** What `seedAppGrant` wrote: the app's client key and the ids of its grant and refresh token. */
export interface SeededAppGrant {
  clientId: string;
  grantId: string;
  refreshTokenId: string;
  /** The grant's and the refresh token's ids, the records that must go when the app is revoked. */
  ids: string[];
}

const recordsOf = (db: Kysely<Database>) => db as unknown as Kysely<OpenAuthRecords>;

/**
 * An app the person authorised, as the provider stores it: a grant and a refresh token that would
 * outlive the sessions; with `clientName`, the app's client record too (the name revocations report;
 * without it they report the client key). Ids are derived from the user id: one per account.
 */
export async function seedAppGrant(
  db: Kysely<Database>,
  userId: string,
  options: { clientName?: string } = {},
): Promise<SeededAppGrant> {
  const clientId = `c-${userId}`;
  const grantId = `g-${userId}`;
  const refreshTokenId = `r-${userId}`;
  const at = Date.now();
  await recordsOf(db)
    .insertInto('open_auth_records')
    .values([
      {
        model: 'Grant',
        id: grantId,
        payload: '{}',
        grant_id: null,
        account_id: userId,
        client_id: clientId,
        created_at: at,
      },
      ...(options.clientName === undefined
        ? []
        : [
            {
              model: 'Client',
              id: clientId,
              payload: JSON.stringify({ client_id: clientId, client_name: options.clientName }),
              grant_id: null,
              account_id: null,
              client_id: clientId,
              created_at: at,
            },
          ]),
      {
        model: 'RefreshToken',
        id: refreshTokenId,
        payload: '{}',
        grant_id: grantId,
        account_id: userId,
        created_at: at,
      },
    ])
    .execute();
  return { clientId, grantId, refreshTokenId, ids: [grantId, refreshTokenId] };
}

/** Which of these provider records are still there. */
export async function openAuthRecordsLeft(db: Kysely<Database>, ids: readonly string[]): Promise<string[]> {
  const rows = await recordsOf(db)
    .selectFrom('open_auth_records')
    .select('id')
    .where('id', 'in', ids)
    .execute();
  return rows.map((row) => row.id);
}

/** The provider records that still name the account. */
export async function openAuthRecordsOf(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await recordsOf(db)
    .selectFrom('open_auth_records')
    .select('id')
    .where('account_id', '=', userId)
    .execute();
  return rows.map((row) => row.id);
}
