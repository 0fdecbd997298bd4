import { assertHolds, assertWithinReach } from '../../access/statement';
import { deputyIn, rolesOfDeputy } from '../../domain/organisations/actors';
import {
  deputyPage,
  identityPage,
  ownDeputyIn,
  removeDeputy,
  renameDeputy,
  roleKeysOf,
  setDeputyFrozen,
} from '../../domain/organisations/members';
import { pageOf } from '../../domain/organisations/organisations';
import { deputyView } from '../../domain/organisations/views';
import { awaitingAmong, isAwaiting } from '../../domain/scim/acceptance';
import { PassportError } from '../../errors';
import { Flagged, invitationSchemas } from '../../schemas/invitations';
import { DeputyData, DeputyPage, schemas } from '../../schemas/organisations';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';
import { emitInSubject } from './emit';

/**
 * Member identities (deputies): listed, renamed, frozen, thawed, removed, and left. The manager is
 * never frozen, removed or leaves (MANAGER_PROTECTED: transfer the manager role first), and nobody
 * freezes or removes a member holding a role beyond their own reach (GRANT_EXCEEDS_OWN): that would
 * take from the organisation permissions the caller could not give back.
 */

const subject = (input: { sec_subject_uid: string }) => input.sec_subject_uid;

type IdentityContext = OperationContext<CallerOf<{ kind: 'identity'; permission: null }>>;

/** A member the caller acts on: of the subject, not the manager, every role of it within reach. */
async function memberInReach(ctx: IdentityContext, deputyId: string) {
  const target = await deputyIn(ctx.tx, ctx.caller.subject.id, deputyId);
  if (Number(target.is_manager) === 1) throw new PassportError('managerProtected');
  const roles = await rolesOfDeputy(ctx.tx, target.id);
  // Banned roles too: lifting the ban would give them back to someone the caller could not restore.
  assertWithinReach(
    ctx.access,
    ctx.caller.permissions,
    roles.flatMap((role) => role.permissions),
  );
  return { target, roleKeys: roles.map((role) => role.role_key) };
}

/** A page of deputies as the wire shows them, each with its role keys. */
async function deputyViewPage(
  tx: IdentityContext['tx'],
  { rows, total, limit }: Awaited<ReturnType<typeof deputyPage>>,
  page: number,
) {
  const ids = rows.map((r) => r.id);
  const keys = await roleKeysOf(tx, ids);
  const awaiting = await awaitingAmong(tx, ids);
  return pageOf(
    rows.map((r) => deputyView(r, keys.get(r.id), awaiting.has(r.id))),
    total,
    { page, page_size: limit },
  );
}

export const listMembers = defineOperation({
  name: 'organisation.member.list',
  input: schemas.deputyList.querystring,
  output: DeputyPage,
  caller: caller.identity('member:read'),
  subject,
  emits: [],
  async run(ctx, input) {
    return deputyViewPage(ctx.tx, await deputyPage(ctx.tx, ctx.caller.subject.id, input), input.page);
  },
});

export const listOwnIdentities = defineOperation({
  name: 'organisation.identity.list',
  input: schemas.identityList.querystring,
  output: DeputyPage,
  caller: caller.person,
  emits: [],
  async run(ctx, input) {
    return deputyViewPage(ctx.tx, await identityPage(ctx.tx, ctx.caller.user.id, input), input.page);
  },
});

export const renameMember = defineOperation({
  name: 'organisation.member.rename',
  input: schemas.deputyUpdate.body,
  output: DeputyData,
  // One's own identity, or another's with member:update.
  caller: caller.identity(null),
  subject,
  emits: [],
  async run(ctx, input) {
    const target = await deputyIn(ctx.tx, ctx.caller.subject.id, input.user_identity_id);
    if (target.id !== ctx.caller.deputy.id) assertHolds(ctx.caller.permissions, 'member:update');
    const now = ctx.now();
    await renameDeputy(ctx.tx, target.id, input.deputy_name, now);
    return deputyView(
      { ...target, deputy_name: input.deputy_name, updated_at: now },
      [],
      await isAwaiting(ctx.tx, target.id),
    );
  },
});

export const freezeMember = defineOperation({
  name: 'organisation.member.freeze',
  input: schemas.deputyFreeze.body,
  output: DeputyData,
  caller: caller.identity('member:freeze'),
  subject,
  emits: ['organisation.member.frozen', 'organisation.member.thawed'],
  async run(ctx, input) {
    const { target, roleKeys } = await memberInReach(ctx, input.user_identity_id);
    const now = ctx.now();
    await setDeputyFrozen(ctx.tx, target.id, input.is_frozen, now);
    if (Number(target.is_frozen) !== input.is_frozen)
      emitInSubject(
        ctx,
        input.is_frozen === 1 ? 'organisation.member.frozen' : 'organisation.member.thawed',
        { memberId: target.id, memberName: target.deputy_name, roleKeys },
        target.user_id,
      );
    return deputyView({ ...target, is_frozen: input.is_frozen, updated_at: now });
  },
});

export const removeMember = defineOperation({
  name: 'organisation.member.remove',
  input: schemas.deputyDelete.body,
  output: Flagged,
  caller: caller.identity('member:delete'),
  subject,
  emits: ['organisation.member.removed'],
  async run(ctx, input) {
    const { target, roleKeys } = await memberInReach(ctx, input.user_identity_id);
    await removeDeputy(ctx.tx, target.id);
    emitInSubject(
      ctx,
      'organisation.member.removed',
      { memberId: target.id, memberName: target.deputy_name, roleKeys },
      target.user_id,
    );
    return { deleted: true };
  },
});

/**
 * Leaves a subject: the caller's own identity goes, with its roles and every session acting as it.
 * A frozen member, or a member of a frozen subject, may leave too; the manager may not
 * (MANAGER_PROTECTED: transfer the manager role first, so a subject never loses its one manager).
 */
export const leaveSubject = defineOperation({
  name: 'organisation.member.leave',
  input: invitationSchemas.deputyLeave.body,
  output: Flagged,
  caller: caller.person,
  emits: ['organisation.member.left'],
  async run(ctx, input) {
    const { user } = ctx.caller;
    const deputy = await ownDeputyIn(ctx.tx, user.id, input.sec_subject_uid);
    if (Number(deputy.is_manager) === 1) throw new PassportError('managerProtected');
    const roles = await rolesOfDeputy(ctx.tx, deputy.id);
    await removeDeputy(ctx.tx, deputy.id);
    ctx.emit({
      type: 'organisation.member.left',
      stream: `subject:${deputy.subject_id}`,
      actor: { kind: 'identity', userId: user.id, subjectId: deputy.subject_id, deputyId: deputy.id },
      subjectId: deputy.subject_id,
      targetUserId: user.id,
      data: {
        memberId: deputy.id,
        memberName: deputy.deputy_name,
        roleKeys: roles.map((role) => role.role_key),
      },
    });
    return { left: true };
  },
});
