import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { onPostgres } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { PassportError } from '../../errors';

/** The profile fields whose changes are counted, in the one namespace the account centre uses. */
export const PROFILE_FIELDS = ['name', 'avatar', 'description', 'birthday', 'gender', 'pic'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export const PROFILE_NAMESPACE = 'profile';

export interface Quota {
  times: number;
  windowSeconds: number;
}

const DAY = 86_400;

/**
 * The defaults: the name 3 times per 30 days (it is how others know the person), the birthday 3 times
 * a year, the gender 3 times per 30 days, avatar and description 20 times a day (against floods, not
 * against people), pictures 50 a day. PROFILE_QUOTAS overrides any of them.
 */
export const DEFAULT_QUOTAS: Record<string, Quota> = {
  'profile.name': { times: 3, windowSeconds: 30 * DAY },
  'profile.birthday': { times: 3, windowSeconds: 365 * DAY },
  'profile.gender': { times: 3, windowSeconds: 30 * DAY },
  'profile.avatar': { times: 20, windowSeconds: DAY },
  'profile.description': { times: 20, windowSeconds: DAY },
  // Pictures are stored in the database: a cap per day keeps one account from filling it.
  'profile.pic': { times: 50, windowSeconds: DAY },
};

/** The quotas a deployment sets (PROFILE_QUOTAS), over the defaults. */
export type QuotaOverrides = Config['profileQuotas'];

export const quotaOf = (overrides: QuotaOverrides, namespace: string, field: string): Quota | undefined =>
  overrides[`${namespace}.${field}`] ?? DEFAULT_QUOTAS[`${namespace}.${field}`];

export interface Remaining {
  field: string;
  field_namespace: string;
  remain_times: number;
  total_times: number;
  window_seconds: number;
  next_available_at: number;
}

/** How many changes of a field are left in its window, and when the next one is possible. */
export async function remainingUpdates(
  db: Kysely<Database>,
  overrides: QuotaOverrides,
  userId: string,
  namespace: string,
  field: string,
  now: number,
): Promise<Remaining> {
  const quota = quotaOf(overrides, namespace, field);
  const base = { field, field_namespace: namespace };
  // A field without a quota may change freely: -1 says "no limit".
  if (!quota) return { ...base, remain_times: -1, total_times: -1, window_seconds: 0, next_available_at: 0 };
  const since = now - quota.windowSeconds * 1000;
  const rows = await db
    .selectFrom('profile_updates')
    .select('at')
    .where('user_id', '=', userId)
    .where('namespace', '=', namespace)
    .where('field', '=', field)
    .where('at', '>', since)
    .orderBy('at', 'asc')
    .execute();
  const remain = Math.max(0, quota.times - rows.length);
  // The change that frees a slot is the oldest one still counted in the window.
  const blocking = rows[rows.length - quota.times];
  const next = remain > 0 || !blocking ? 0 : Number(blocking.at) + quota.windowSeconds * 1000;
  return {
    ...base,
    remain_times: remain,
    total_times: quota.times,
    window_seconds: quota.windowSeconds,
    next_available_at: next,
  };
}

/**
 * Counts one change of a field inside the caller's transaction. The account's row is locked first
 * (PostgreSQL; SQLite runs one writer at a time), so concurrent changes of one account are counted one
 * after another: without it, each of twenty uploads at once counted only its own uncommitted row and
 * most slipped under the limit. Over the limit throws UPDATE_LIMIT_REACHED with the field and when the
 * next change is possible; the transaction rolls back whatever the caller wrote with it.
 */
export async function chargeUpdate(
  trx: Kysely<Database>,
  overrides: QuotaOverrides,
  userId: string,
  namespace: string,
  field: string,
  now: number,
): Promise<void> {
  const quota = quotaOf(overrides, namespace, field);
  if (!quota) return;
  if (onPostgres(trx))
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  const changes = trx
    .selectFrom('profile_updates')
    .where('user_id', '=', userId)
    .where('namespace', '=', namespace)
    .where('field', '=', field)
    .where('at', '>', now - quota.windowSeconds * 1000);
  const { count } = await changes
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  if (Number(count) >= quota.times) {
    // The next change is possible when the oldest change in the window leaves it.
    const oldest = await changes.select('at').orderBy('at', 'asc').executeTakeFirst();
    throw new PassportError('updateLimitReached', {
      field,
      field_namespace: namespace,
      next_available_at: oldest ? Number(oldest.at) + quota.windowSeconds * 1000 : 0,
    });
  }
  await trx
    .insertInto('profile_updates')
    .values({ id: randomUUID(), user_id: userId, namespace, field, at: now })
    .execute();
}
