import type { Kysely } from 'kysely';
import { onPostgres } from '../../db/dialect';
import type { Database, User } from '../../db/schema';
import { PassportError } from '../../errors';
import { DEFAULT_AVATAR_KEYS, imageUrl } from './images';
import { normaliseBirthday, normaliseDescription, normaliseName } from './names';
import { chargeUpdate, PROFILE_NAMESPACE, type QuotaOverrides } from './quotas';

/** The editable profile as the client sees it. */
export interface Profile {
  user_id: string;
  name: string;
  description: string;
  birthday: string;
  gender: number;
  avatar_key: string;
  avatar_url: string;
}

export const profileOf = (user: User): Profile => ({
  user_id: user.id,
  name: user.screen_name,
  description: user.description ?? '',
  birthday: user.birthday ?? '',
  gender: Number(user.gender ?? 0),
  avatar_key: user.avatar_key ?? '',
  avatar_url: user.avatar_key ? imageUrl(user.avatar_key) : '',
});

export interface ProfileChange {
  name?: string;
  description?: string;
  birthday?: string;
  gender?: number;
  avatar_key?: string;
}

/**
 * Applies a profile change in the transaction given: each field is validated, only the fields that
 * really change are written and counted against their quota, and a refusal of any one throws, so the
 * transaction leaves all of them as they were. An avatar key must be a built-in default or an approved
 * avatar or picture of this user. Answers the account as it is now and the fields that changed.
 */
export async function updateProfile(
  trx: Kysely<Database>,
  overrides: QuotaOverrides,
  userId: string,
  change: ProfileChange,
  now: number,
): Promise<{ user: User; fields: string[] }> {
  const next: Partial<User> = {};
  if (change.name !== undefined) next.screen_name = normaliseName(change.name);
  if (change.description !== undefined) next.description = normaliseDescription(change.description);
  if (change.birthday !== undefined) next.birthday = normaliseBirthday(change.birthday, now);
  if (change.gender !== undefined) next.gender = change.gender;
  if (change.avatar_key !== undefined) next.avatar_key = change.avatar_key === '' ? null : change.avatar_key;

  let query = trx.selectFrom('users').selectAll().where('id', '=', userId);
  if (onPostgres(trx)) query = query.forUpdate();
  const user = await query.executeTakeFirst();
  if (!user) throw new PassportError('notLoggedIn');
  const changed: Partial<User> = {};
  const fields: string[] = [];
  if (next.screen_name !== undefined && next.screen_name !== user.screen_name) {
    changed.screen_name = next.screen_name;
    changed.name_set_at = now;
    fields.push('name');
  }
  if (next.description !== undefined && next.description !== user.description) {
    changed.description = next.description;
    fields.push('description');
  }
  if (next.birthday !== undefined && next.birthday !== user.birthday) {
    changed.birthday = next.birthday;
    fields.push('birthday');
  }
  if (next.gender !== undefined && next.gender !== Number(user.gender)) {
    changed.gender = next.gender;
    fields.push('gender');
  }
  if (next.avatar_key !== undefined && next.avatar_key !== user.avatar_key) {
    if (next.avatar_key !== null && !DEFAULT_AVATAR_KEYS.includes(next.avatar_key)) {
      const image = await trx
        .selectFrom('images')
        .select(['owner_id', 'review_state', 'kind'])
        .where('key', '=', next.avatar_key)
        .executeTakeFirst();
      if (!image || image.owner_id !== userId || image.review_state !== 'approved')
        throw new PassportError('profileFieldInvalid', { field: 'avatar_key' });
    }
    changed.avatar_key = next.avatar_key;
    fields.push('avatar');
  }
  for (const field of fields) await chargeUpdate(trx, overrides, userId, PROFILE_NAMESPACE, field, now);
  if (fields.length === 0) return { user, fields };
  await trx
    .updateTable('users')
    .set({ ...changed, updated_at: now })
    .where('id', '=', userId)
    .execute();
  return { user: { ...user, ...changed, updated_at: now }, fields };
}
