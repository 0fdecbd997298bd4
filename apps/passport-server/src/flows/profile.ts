import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_AVATAR_KEYS, DEFAULT_BACKGROUND_KEYS, imageUrl } from '../domain/profile/images';
import { candidateNames, GENERATED_NAME } from '../domain/profile/names';
import { type ProfileChange, profileOf, updateProfile } from '../domain/profile/profile';
import { PROFILE_NAMESPACE, remainingUpdates } from '../domain/profile/quotas';
import { requireSession } from '../domain/sessions/sessions';
import { eventContextOf } from '../events/record';
import { languageOf } from '../lib/language';

/** update/user_info: changes the fields sent; answers the whole profile. */
export async function updateUserInfo(app: FastifyInstance, request: FastifyRequest, change: ProfileChange) {
  const session = requireSession(request);
  return profileOf(await updateProfile(app, session.userId, change, eventContextOf(app, request)));
}

/** get/remain_update_times. */
export function remainUpdateTimes(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { field: string; field_namespace?: string },
) {
  const session = requireSession(request);
  return remainingUpdates(
    app,
    app.db,
    session.userId,
    input.field_namespace ?? PROFILE_NAMESPACE,
    input.field,
  );
}

/**
 * check/default_info: which fields still hold what the account was given at creation. The name is a
 * default while it is the generated `user…` and was never chosen; the avatar while there is none.
 */
export function checkDefaultInfo(request: FastifyRequest, scene: string) {
  const { user } = requireSession(request);
  const fields: string[] = [];
  if (user.name_set_at === null && GENERATED_NAME.test(user.screen_name)) fields.push('name');
  if (!user.avatar_key) fields.push('avatar');
  return { scene, is_default: fields.length > 0, default_fields: fields };
}

/**
 * The default images of an app. Every app has the built-in set today; a per-aid set is one more row
 * in this table (a product with its own look adds its keys).
 */
const APP_DEFAULTS: Record<string, { avatars: string[]; backgrounds: string[] }> = {
  '*': { avatars: DEFAULT_AVATAR_KEYS, backgrounds: DEFAULT_BACKGROUND_KEYS },
};
export function defaultImages(aid: string, kind: 'avatars' | 'backgrounds') {
  const set = APP_DEFAULTS[aid] ?? APP_DEFAULTS['*']!;
  return { images: set[kind].map((key) => ({ key, url: imageUrl(key) })) };
}

/** settings/recommend_name: up to four suggestions in the request's language that nobody uses. */
export async function recommendName(app: FastifyInstance, request: FastifyRequest) {
  const language = languageOf(request) === 'en' ? 'en' : 'zh';
  const candidates = candidateNames(language, 8);
  const taken = new Set(
    (
      await app.db.selectFrom('users').select('screen_name').where('screen_name', 'in', candidates).execute()
    ).map((row) => row.screen_name),
  );
  return { names: candidates.filter((name) => !taken.has(name)).slice(0, 4) };
}
