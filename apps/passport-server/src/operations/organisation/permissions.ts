import { assertHolds, rolesGranting } from '../../access/statement';
import { deputyIn, permissionsOfDeputy, rolesOfDeputy } from '../../domain/organisations/actors';
import { pageOf, window } from '../../domain/organisations/organisations';
import { PassportError } from '../../errors';
import { ExplainData, PermissionsData, ResourcePage, schemas } from '../../schemas/organisations';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';

/** The access statement, a member's permissions and why it holds one: answered from one statement. */

const subject = (input: { subject_uid: string }) => input.subject_uid;

export const listResources = defineOperation({
  name: 'organisation.resource.list',
  input: schemas.resourceList.querystring,
  output: ResourcePage,
  caller: caller.identity(null),
  subject,
  emits: [],
  async run(ctx, input) {
    const rows = Object.entries(ctx.access.statement).map(([resource, actions]) => ({
      resource,
      actions: [...actions],
    }));
    const { limit, offset } = window(input);
    return pageOf(rows.slice(offset, offset + limit), rows.length, { page: input.page, page_size: limit });
  },
});

/** The identity asked about: the caller's own by default; another's needs member:read. */
async function memberAskedAbout(
  ctx: OperationContext<CallerOf<{ kind: 'identity'; permission: null }>>,
  identityId: string | undefined,
) {
  const { caller: actor } = ctx;
  if (!identityId || identityId === actor.deputy.id)
    return { deputy: actor.deputy, permissions: actor.permissions };
  assertHolds(actor.permissions, 'member:read');
  const deputy = await deputyIn(ctx.tx, actor.subject.id, identityId);
  return { deputy, permissions: await permissionsOfDeputy(ctx.tx, ctx.access, deputy) };
}

export const memberPermissions = defineOperation({
  name: 'organisation.member.permissions',
  input: schemas.userPermissions.querystring,
  output: PermissionsData,
  caller: caller.identity(null),
  subject,
  emits: [],
  async run(ctx, input) {
    const { deputy, permissions } = await memberAskedAbout(ctx, input.identity_id);
    return {
      user_identity_id: deputy.id,
      is_manager: Number(deputy.is_manager) === 1,
      permissions: ctx.access.all.filter((p) => permissions.has(p)),
    };
  },
});

/** "Why does this member have X?": the manager flag, and each of its roles whose entries grant it. */
export const explainPermission = defineOperation({
  name: 'organisation.member.permission.explain',
  input: schemas.permissionExplain.querystring,
  output: ExplainData,
  caller: caller.identity(null),
  subject,
  emits: [],
  async run(ctx, input) {
    const { deputy, permissions } = await memberAskedAbout(ctx, input.identity_id);
    if (!ctx.access.known.has(input.permission))
      throw new PassportError('unknownPermission', { permission: input.permission });
    const { granting, banned } = rolesGranting(input.permission, await rolesOfDeputy(ctx.tx, deputy.id));
    return {
      user_identity_id: deputy.id,
      permission: input.permission,
      granted: permissions.has(input.permission),
      by_manager: Number(deputy.is_manager) === 1,
      roles: granting.map(({ role_key, role_name, permissions: entries }) => ({
        role_key,
        role_name,
        permissions: entries,
      })),
      banned_roles: banned.map((r) => r.role_key),
    };
  },
});
