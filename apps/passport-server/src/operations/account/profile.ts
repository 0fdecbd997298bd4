import { candidateNames, GENERATED_NAME, namesInUse } from '../../domain/profile/names';
import { profileOf, updateProfile } from '../../domain/profile/profile';
import { PROFILE_NAMESPACE, remainingUpdates } from '../../domain/profile/quotas';
import { DefaultInfo, Profile, RecommendNames, RemainUpdateTimes, schema } from '../../schemas/profile';
import { caller, defineOperation } from '../define';
import { emitForAccount } from './emit';

/** The person's own profile (docs/profiles.md): its fields, their quotas, name suggestions. */

/** update/user_info: changes the fields sent; answers the whole profile. */
export const updateUserInfo = defineOperation({
  name: 'account.profile.update',
  input: schema.updateUserInfo.body,
  output: Profile,
  caller: caller.person,
  emits: ['account.profile_updated'],
  async run(ctx, input) {
    const { name, description, birthday, gender, avatar_key } = input;
    const { user, fields } = await updateProfile(
      ctx.tx,
      ctx.config.profileQuotas,
      ctx.caller.user.id,
      { name, description, birthday, gender, avatar_key },
      ctx.now(),
    );
    // Which fields changed, never their values; a change that changes nothing is no event.
    if (fields.length > 0) emitForAccount(ctx, 'account.profile_updated', { fields });
    return profileOf(user);
  },
});

/** get/remain_update_times: how many changes of a field are left in its window. */
export const remainUpdateTimes = defineOperation({
  name: 'account.profile.remaining',
  input: schema.remainUpdateTimes.querystring,
  output: RemainUpdateTimes,
  caller: caller.person,
  emits: [],
  run: (ctx, input) =>
    remainingUpdates(
      ctx.tx,
      ctx.config.profileQuotas,
      ctx.caller.user.id,
      input.field_namespace ?? PROFILE_NAMESPACE,
      input.field,
      ctx.now(),
    ),
});

/**
 * check/default_info: which fields still hold what the account was given at creation. The name is a
 * default while it is the generated `user…` and was never chosen; the avatar while there is none.
 */
export const checkDefaultInfo = defineOperation({
  name: 'account.profile.defaults',
  input: schema.checkDefaultInfo.querystring,
  output: DefaultInfo,
  caller: caller.person,
  emits: [],
  async run(ctx, input) {
    const { user } = ctx.caller;
    const fields: string[] = [];
    if (user.name_set_at === null && GENERATED_NAME.test(user.screen_name)) fields.push('name');
    if (!user.avatar_key) fields.push('avatar');
    return { scene: input.scene ?? 'normal', is_default: fields.length > 0, default_fields: fields };
  },
});

/** settings/recommend_name: up to four suggestions in the asked language that nobody uses. */
export const recommendName = defineOperation({
  name: 'account.profile.recommend_name',
  input: schema.recommendName.querystring,
  output: RecommendNames,
  caller: caller.anonymous,
  emits: [],
  async run(ctx, input) {
    const language = input.language?.toLowerCase().startsWith('en') ? 'en' : 'zh';
    const candidates = candidateNames(language, 8);
    const taken = await namesInUse(ctx.tx, candidates);
    return { names: candidates.filter((name) => !taken.has(name)).slice(0, 4) };
  },
});
