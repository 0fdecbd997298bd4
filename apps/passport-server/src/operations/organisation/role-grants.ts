import { assertGrantable, assertWithinReach } from '../../access/statement';
import { roleIn } from '../../domain/organisations/actors';
import { stringListOf } from '../../domain/organisations/infos';
import { storedPermissions } from '../../domain/organisations/organisations';
import { deputiesIn, linkPage, linkRole, unlinkRole } from '../../domain/organisations/roles';
import { PassportError } from '../../errors';
import { ORGANISATION_LIMITS } from '../../protocol';
import { Count, LinkPage, schemas } from '../../schemas/organisations';
import { caller, defineOperation } from '../define';
import { emitInSubject } from './emit';

/**
 * Roles given to and taken from members. A role is given only whole, so all of its entries must be the
 * caller's (a banned role is given to nobody); it is taken only by a caller it does not exceed.
 */

const subject = (input: { subject_uid: string }) => input.subject_uid;
const identityIds = (raw: string | readonly string[]) =>
  stringListOf('sec_user_identity_ids', raw, ORGANISATION_LIMITS.identitiesPerCall) ?? [];

/** One event per member the change touched, about that member's account. */
function emitPerMember(
  ctx: Parameters<typeof emitInSubject>[0],
  type: 'organisation.role.granted' | 'organisation.role.revoked',
  roleKey: string,
  deputies: readonly { id: string; user_id: string }[],
  changed: readonly string[],
) {
  for (const deputy of deputies)
    if (changed.includes(deputy.id))
      emitInSubject(ctx, type, { roleKey, memberId: deputy.id }, deputy.user_id);
}

export const grantRole = defineOperation({
  name: 'organisation.role.grant',
  input: schemas.userRoleAdd.body,
  output: Count,
  caller: caller.identity('role:assign'),
  subject,
  emits: ['organisation.role.granted'],
  async run(ctx, input) {
    const ids = identityIds(input.sec_user_identity_ids);
    const role = await roleIn(ctx.tx, ctx.caller.subject.id, input.role_key);
    if (Number(role.is_banned) === 1) throw new PassportError('roleBanned');
    assertGrantable(ctx.access, ctx.caller.permissions, storedPermissions(role.permissions));
    const deputies = await deputiesIn(ctx.tx, ctx.caller.subject.id, ids);
    const granted = await linkRole(ctx.tx, role, ids, ctx.now());
    emitPerMember(ctx, 'organisation.role.granted', role.role_key, deputies, granted);
    return { added: granted.length };
  },
});

export const revokeRole = defineOperation({
  name: 'organisation.role.revoke',
  input: schemas.userRoleDelete.body,
  output: Count,
  caller: caller.identity('role:assign'),
  subject,
  emits: ['organisation.role.revoked'],
  async run(ctx, input) {
    const ids = identityIds(input.sec_user_identity_ids);
    const role = await roleIn(ctx.tx, ctx.caller.subject.id, input.role_key);
    assertWithinReach(ctx.access, ctx.caller.permissions, storedPermissions(role.permissions));
    const deputies = await deputiesIn(ctx.tx, ctx.caller.subject.id, ids);
    const revoked = await unlinkRole(ctx.tx, role.id, ids);
    emitPerMember(ctx, 'organisation.role.revoked', role.role_key, deputies, revoked);
    return { removed: revoked.length };
  },
});

export const listRoleMembers = defineOperation({
  name: 'organisation.role.members',
  input: schemas.userRoleList.querystring,
  output: LinkPage,
  caller: caller.identity('role:read'),
  subject,
  emits: [],
  async run(ctx, input) {
    const role = await roleIn(ctx.tx, ctx.caller.subject.id, input.role_key);
    return linkPage(ctx.tx, ctx.caller.subject.id, role.id, input);
  },
});

export const listRoleLinks = defineOperation({
  name: 'organisation.role.links',
  input: schemas.userRoleAll.querystring,
  output: LinkPage,
  caller: caller.identity('role:read'),
  subject,
  emits: [],
  run: (ctx, input) => linkPage(ctx.tx, ctx.caller.subject.id, undefined, input),
});
