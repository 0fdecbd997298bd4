import { Type } from 'typebox';
import { removeDeputy } from '../../domain/organisations/members';
import { acceptMembership, awaitingMembership } from '../../domain/scim/acceptance';
import { PassportError } from '../../errors';
import { schemas } from '../../schemas/enterprise';
import { caller, defineOperation } from '../define';

/**
 * The person's answer to a membership an organisation's identity provider provisioned for the
 * account they had before (docs/scim.md, "Which account"): accepted, it thaws (when the provider has
 * the User active) and they may sign in to it; declined, it is removed (the User stays the provider's,
 * and makes it no more).
 * Only the account's own session answers; nothing waiting is NOTHING_TO_ACCEPT.
 */
export const answerMembership = defineOperation({
  name: 'organisation.membership.accept',
  input: schemas.membershipAccept.body,
  output: Type.Object({
    sec_subject_uid: Type.String(),
    user_identity_id: Type.Union([Type.String(), Type.Null()]),
    accepted: Type.Boolean(),
  }),
  caller: caller.person,
  emits: ['organisation.scim_user.accepted', 'organisation.scim_user.declined'],
  async run(ctx, input) {
    const { user } = ctx.caller;
    const subjectId = input.subject_uid;
    const awaiting = await awaitingMembership(ctx.tx, subjectId, user.id);
    if (!awaiting) throw new PassportError('nothingToAccept');
    const event = {
      stream: `subject:${subjectId}`,
      actor: { kind: 'person', userId: user.id },
      subjectId,
      targetUserId: user.id,
    } as const;
    if (input.decline === true) {
      await ctx.tx
        .updateTable('scim_users')
        // Remembered, so the provider's next reactivation of this User does not ask again.
        .set((eb) => ({
          awaiting_acceptance: 0,
          declined_at: ctx.now(),
          version: eb('version', '+', 1),
          updated_at: ctx.now(),
        }))
        .where('id', '=', awaiting.scimId)
        .execute();
      await removeDeputy(ctx.tx, awaiting.memberId);
      ctx.emit({
        ...event,
        type: 'organisation.scim_user.declined',
        data: { scimId: awaiting.scimId, memberId: awaiting.memberId },
      });
      return { sec_subject_uid: subjectId, user_identity_id: null, accepted: false };
    }
    if (!(await acceptMembership(ctx.tx, awaiting, ctx.now()))) throw new PassportError('nothingToAccept');
    ctx.emit({
      ...event,
      type: 'organisation.scim_user.accepted',
      data: { scimId: awaiting.scimId, memberId: awaiting.memberId, proof: 'accepted' },
    });
    return { sec_subject_uid: subjectId, user_identity_id: awaiting.memberId, accepted: true };
  },
});
