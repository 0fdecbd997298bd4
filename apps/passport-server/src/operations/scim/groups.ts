import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import { Type } from 'typebox';
import type { RolesTable } from '../../db/schema';
import { isUniqueViolation } from '../../domain/enterprise/domains';
import { linkRole, unlinkRole } from '../../domain/organisations/roles';
import {
  assertMatches,
  equalityOn,
  GROUP_MEMBERS_MAX,
  holdForWrite,
  listResponse,
  metaOf,
  parseFilter,
  patched,
  SCIM_SCHEMAS,
  scimInvalid,
  scimNotFound,
  scimTaken,
  stringOf,
  writable,
} from '../../domain/scim/resources';
import { ORGANISATION_LIMITS } from '../../protocol';
import { defineOperation } from '../define';
import {
  Deleted,
  emitScim,
  ListQuery,
  organisationOf,
  ResourceDelete,
  ResourceId,
  ResourceWrite,
  ScimBody,
  type ScimContext,
  ScimListResponse,
  ScimResource,
  scimCaller,
} from './context';

/**
 * SCIM Groups of the key's organisation (docs/scim.md): a Group is one of its roles, its members the
 * provisioned Users holding it. Every role shows as a Group (so the identity provider can push to a
 * role the manager made); creating a Group makes a role with no permissions, for the manager to give
 * some; only a role SCIM made can be deleted over SCIM.
 */

type RoleRow = Selectable<RolesTable>;
interface Member {
  value: string;
  display: string;
  /** The membership holding the role, and its account (the events' target). */
  deputyId: string;
  userId: string;
}

/** The provisioned members holding each role: Users of the organisation, by role id. */
async function membersOf(ctx: ScimContext, roleIds: readonly string[]) {
  const out = new Map<string, Member[]>();
  if (roleIds.length === 0) return out;
  const rows = await ctx.tx
    .selectFrom('deputy_roles')
    .innerJoin('deputies', 'deputies.id', 'deputy_roles.deputy_id')
    .innerJoin('scim_users', (join) =>
      join
        .onRef('scim_users.user_id', '=', 'deputies.user_id')
        .onRef('scim_users.subject_id', '=', 'deputies.subject_id'),
    )
    .select([
      'deputy_roles.role_id',
      'deputies.id as deputy_id',
      'deputies.user_id',
      'scim_users.id',
      'scim_users.user_name',
    ])
    .where('deputy_roles.role_id', 'in', roleIds)
    .orderBy('scim_users.created_at')
    .execute();
  for (const row of rows)
    out.set(row.role_id, [
      ...(out.get(row.role_id) ?? []),
      { value: row.id, display: row.user_name, deputyId: row.deputy_id, userId: row.user_id },
    ]);
  return out;
}

async function groupRows(ctx: ScimContext, roleId?: string) {
  let query = ctx.tx
    .selectFrom('roles')
    .leftJoin('scim_groups', 'scim_groups.role_id', 'roles.id')
    .selectAll('roles')
    .select(['scim_groups.external_id', 'scim_groups.version', 'scim_groups.role_id as scim_made'])
    .where('roles.subject_id', '=', organisationOf(ctx));
  if (roleId !== undefined) query = query.where('roles.id', '=', roleId);
  return query.orderBy('roles.created_at').orderBy('roles.id').execute();
}
type GroupRow = Awaited<ReturnType<typeof groupRows>>[number];

function groupResource(ctx: ScimContext, row: GroupRow, members: readonly Member[] | null) {
  return {
    schemas: [SCIM_SCHEMAS.group],
    id: row.id,
    displayName: row.role_name,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    ...(members ? { members: members.map(({ value, display }) => ({ value, display })) } : {}),
    meta: metaOf(
      'Group',
      `${ctx.config.publicOrigin}/scim/v2/Groups/${row.id}`,
      Number(row.created_at),
      Number(row.updated_at),
      versionOf(row),
    ),
  };
}

/** A console-made role has no SCIM row: its version follows its last change. */
const versionOf = (row: GroupRow) => Number(row.version ?? row.updated_at);

async function groupOf(ctx: ScimContext, id: string) {
  const [row] = await groupRows(ctx, id);
  if (!row) throw scimNotFound('Group');
  return row;
}

/** A Group a write changes: its role held for the transaction, then read, at a version `If-Match` names. */
async function groupToWrite(ctx: ScimContext, id: string, ifMatch: string | undefined) {
  await holdForWrite(ctx.tx, 'roles', id);
  const row = await groupOf(ctx, id);
  assertMatches(ifMatch, versionOf(row));
  return row;
}

async function resourceOf(ctx: ScimContext, id: string) {
  const row = await groupOf(ctx, id);
  const members = await membersOf(ctx, [row.id]);
  return groupResource(ctx, row, members.get(row.id) ?? []);
}

/** A Group as sent: its name, external id and the Users it names as members (each once). */
function readGroup(body: unknown) {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw scimInvalid('invalidSyntax', 'The body must be a Group object');
  const group = body as Record<string, unknown>;
  const displayName = stringOf(group.displayName, 'displayName', ORGANISATION_LIMITS.nameMax)?.trim();
  if (!displayName) throw scimInvalid('invalidValue', 'displayName is required');
  const members = group.members ?? [];
  if (!Array.isArray(members)) throw scimInvalid('invalidValue', 'members must be a list');
  const ids = members.map((m) => {
    const value = (m as { value?: unknown } | null)?.value;
    if (typeof value !== 'string' || value.length > 64)
      throw scimInvalid('invalidValue', 'Each member needs the value of a User’s id');
    return value;
  });
  return {
    displayName,
    externalId: stringOf(group.externalId, 'externalId', 256),
    memberIds: [...new Set(ids)],
  };
}
type GroupInput = ReturnType<typeof readGroup>;

/** The memberships of Users the organisation provisioned, by their SCIM ids; another id is refused. */
async function membershipsOf(ctx: ScimContext, scimIds: readonly string[]) {
  if (scimIds.length === 0) return [];
  const rows = await ctx.tx
    .selectFrom('scim_users')
    .innerJoin('deputies', (join) =>
      join
        .onRef('deputies.user_id', '=', 'scim_users.user_id')
        .onRef('deputies.subject_id', '=', 'scim_users.subject_id'),
    )
    .select(['scim_users.id', 'deputies.id as deputy_id', 'deputies.user_id'])
    .where('scim_users.subject_id', '=', organisationOf(ctx))
    .where('scim_users.id', 'in', scimIds)
    .execute();
  if (rows.length !== scimIds.length)
    throw scimInvalid('invalidValue', 'A member is not a User this organisation provisioned');
  return rows;
}

/** Sets the role's holders among the provisioned Users to `memberIds`, one event per change. */
async function setMembers(ctx: ScimContext, role: RoleRow, memberIds: readonly string[]) {
  const wanted = await membershipsOf(ctx, memberIds);
  const current = (await membersOf(ctx, [role.id])).get(role.id) ?? [];
  const wantedIds = new Set(wanted.map((w) => w.deputy_id));
  const leaving = current.filter((c) => !wantedIds.has(c.deputyId));
  const removed =
    leaving.length > 0
      ? await unlinkRole(
          ctx.tx,
          role.id,
          leaving.map((c) => c.deputyId),
        )
      : [];
  const added =
    wanted.length > 0
      ? await linkRole(
          ctx.tx,
          role,
          wanted.map((w) => w.deputy_id),
          ctx.now(),
        )
      : [];
  for (const member of wanted)
    if (added.includes(member.deputy_id))
      emitScim(
        ctx,
        'organisation.role.granted',
        { roleKey: role.role_key, memberId: member.deputy_id },
        member.user_id,
      );
  for (const member of leaving)
    if (removed.includes(member.deputyId))
      emitScim(
        ctx,
        'organisation.role.revoked',
        { roleKey: role.role_key, memberId: member.deputyId },
        member.userId,
      );
}

async function assertNameFree(ctx: ScimContext, displayName: string, except?: string) {
  let query = ctx.tx
    .selectFrom('roles')
    .select('id')
    .where('subject_id', '=', organisationOf(ctx))
    .where('role_name', '=', displayName);
  if (except) query = query.where('id', '!=', except);
  if (await query.executeTakeFirst()) throw scimTaken('A Group (a role) of the organisation has this name');
}

/** Writes a replaced or patched Group over its role: the name, the external id and the holders. */
async function replaceGroup(ctx: ScimContext, row: GroupRow, input: GroupInput) {
  const now = ctx.now();
  if (input.displayName !== row.role_name) {
    await assertNameFree(ctx, input.displayName, row.id);
    await ctx.tx
      .updateTable('roles')
      .set({ role_name: input.displayName, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    const fields = { permissions: JSON.parse(row.permissions) as string[], description: row.description };
    emitScim(
      ctx,
      'organisation.role.updated',
      {
        roleKey: row.role_key,
        roleName: input.displayName,
        ...fields,
        previous: { roleName: row.role_name, ...fields },
      },
      null,
    );
  }
  // A role SCIM made keeps its external id and version; a console's role has none to keep.
  if (row.scim_made)
    await ctx.tx
      .updateTable('scim_groups')
      .set({ external_id: input.externalId, version: Number(row.version) + 1 })
      .where('role_id', '=', row.id)
      .execute();
  else await ctx.tx.updateTable('roles').set({ updated_at: now }).where('id', '=', row.id).execute();
  await setMembers(ctx, row, input.memberIds);
  return resourceOf(ctx, row.id);
}

/**
 * Entra ID removes members as `{ op: Remove, path: members, value: [{ value: id }] }`; scim-patch
 * removes only values equal in every member (display too), so each becomes `members[value eq "id"]`.
 */
/**
 * At most GROUP_MEMBERS_MAX members named by one write (a PUT's or POST's list, a PATCH's values): the
 * write's statements stay within the databases' bound parameters. A Group may grow past it in steps.
 */
function assertFewMembers(body: unknown): void {
  const named = (value: unknown) => (Array.isArray(value) ? value.length : 0);
  const { members, Operations } = (body ?? {}) as { members?: unknown; Operations?: unknown };
  const count =
    named(members) +
    (Array.isArray(Operations)
      ? Operations.reduce((sum, o) => sum + named((o as { value?: unknown })?.value), 0)
      : 0);
  if (count > GROUP_MEMBERS_MAX)
    throw scimInvalid('tooMany', `A Group's write names at most ${GROUP_MEMBERS_MAX} members`);
}

function membersByValue(body: unknown): unknown {
  const operations = (body as { Operations?: unknown } | null)?.Operations;
  if (!Array.isArray(operations)) return body;
  return {
    ...(body as object),
    Operations: operations.flatMap((operation) => {
      const { op, path, value } = (operation ?? {}) as { op?: unknown; path?: unknown; value?: unknown };
      if (String(op).toLowerCase() !== 'remove' || path !== 'members' || !Array.isArray(value))
        return [operation];
      return value.map((member) => ({
        op: 'remove',
        path: `members[value eq ${JSON.stringify(String((member as { value?: unknown })?.value))}]`,
      }));
    }),
  };
}

export const listScimGroups = defineOperation({
  name: 'scim.groups.list',
  input: ListQuery,
  output: ScimListResponse,
  caller: scimCaller,
  emits: [],
  async run(ctx, input) {
    const parsed = parseFilter(input.filter);
    const rows = await groupRows(ctx);
    // Entra ID asks `excludedAttributes=members` when it only wants to know the group is there.
    const withMembers = !/\bmembers\b/i.test(input.excludedAttributes ?? '');
    const members = withMembers
      ? await membersOf(
          ctx,
          rows.map((r) => r.id),
        )
      : null;
    const resources = rows.map((row) =>
      groupResource(ctx, row, members ? (members.get(row.id) ?? []) : null),
    );
    const name = equalityOn(parsed, 'displayName');
    // displayName is not case-exact (RFC 7643 §4.2): compared in lower case.
    if (name !== null)
      return listResponse(
        resources.filter((r) => r.displayName.toLowerCase() === name.toLowerCase()),
        null,
        input,
      );
    return listResponse(resources, parsed, input);
  },
});

export const getScimGroup = defineOperation({
  name: 'scim.groups.get',
  input: ResourceId,
  output: ScimResource,
  caller: scimCaller,
  emits: [],
  run: async (ctx, input) => resourceOf(ctx, input.id),
});

export const createScimGroup = defineOperation({
  name: 'scim.groups.create',
  input: Type.Object({ body: ScimBody }),
  output: ScimResource,
  caller: scimCaller,
  emits: ['organisation.role.created', 'organisation.role.granted'],
  async run(ctx, { body }) {
    const subjectId = organisationOf(ctx);
    assertFewMembers(body);
    const input = readGroup(body);
    await assertNameFree(ctx, input.displayName);
    const now = ctx.now();
    const role: RoleRow = {
      id: ctx.newId(),
      subject_id: subjectId,
      // A key of its own: the name is the identity provider's and may change.
      role_key: `scim-${randomBytes(6).toString('hex')}`,
      role_name: input.displayName,
      permissions: '[]',
      description: '',
      is_banned: 0,
      created_at: now,
      updated_at: now,
    };
    try {
      await ctx.tx.insertInto('roles').values(role).execute();
      await ctx.tx
        .insertInto('scim_groups')
        .values({
          role_id: role.id,
          subject_id: subjectId,
          external_id: input.externalId,
          version: 1,
          created_at: now,
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw scimTaken('A Group (a role) of the organisation has this name');
      throw error;
    }
    emitScim(
      ctx,
      'organisation.role.created',
      { roleKey: role.role_key, roleName: role.role_name, permissions: [] },
      null,
    );
    await setMembers(ctx, role, input.memberIds);
    return resourceOf(ctx, role.id);
  },
});

export const replaceScimGroup = defineOperation({
  name: 'scim.groups.replace',
  input: ResourceWrite,
  output: ScimResource,
  caller: scimCaller,
  emits: ['organisation.role.updated', 'organisation.role.granted', 'organisation.role.revoked'],
  async run(ctx, { id, ifMatch, body }) {
    const row = await groupToWrite(ctx, id, ifMatch);
    assertFewMembers(body);
    return replaceGroup(ctx, row, readGroup(body));
  },
});

export const patchScimGroup = defineOperation({
  name: 'scim.groups.patch',
  input: ResourceWrite,
  output: ScimResource,
  caller: scimCaller,
  emits: ['organisation.role.updated', 'organisation.role.granted', 'organisation.role.revoked'],
  async run(ctx, { id, ifMatch, body }) {
    const row = await groupToWrite(ctx, id, ifMatch);
    assertFewMembers(body);
    const current = writable(await resourceOf(ctx, id));
    const next = patched(current, membersByValue(body)) as { members?: unknown };
    return replaceGroup(ctx, row, readGroup(next));
  },
});

export const deleteScimGroup = defineOperation({
  name: 'scim.groups.delete',
  input: ResourceDelete,
  output: Deleted,
  caller: scimCaller,
  emits: ['organisation.role.deleted'],
  async run(ctx, input) {
    const row = await groupToWrite(ctx, input.id, input.ifMatch);
    if (!row.scim_made)
      throw scimInvalid(
        'mutability',
        'Only a Group made over SCIM can be deleted; this role is the console’s',
      );
    await ctx.tx.deleteFrom('roles').where('id', '=', row.id).execute();
    emitScim(ctx, 'organisation.role.deleted', { roleKey: row.role_key, roleName: row.role_name }, null);
    return { deleted: true };
  },
});
