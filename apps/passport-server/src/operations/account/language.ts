import { SavedLanguage, schema } from '../../schemas/profile';
import { caller, defineOperation } from '../define';

/**
 * update/language: saves the language the signed-in person switched to, so the choice follows them to
 * a browser that has none of its own (flows/complete-sign-in hands it over at sign-in). No event: a
 * language is a preference, not a change to the account's security or its profile.
 */
export const saveLanguage = defineOperation({
  name: 'account.language.save',
  input: schema.updateLanguage.body,
  output: SavedLanguage,
  caller: caller.person,
  emits: [],
  async run(ctx, input) {
    await ctx.tx
      .updateTable('users')
      .set({ language: input.language })
      .where('id', '=', ctx.caller.user.id)
      .execute();
    return { language: input.language };
  },
});
