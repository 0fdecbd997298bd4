import {
  AuditEventPage,
  AuditEventsQuery,
  InvitationList,
  InvitationParams,
  ManagedInvitation,
  ManagedOrganisation,
  MemberList,
  OrganisationIdParams,
  OrganisationPage,
  PageQuery,
  RoleList,
} from '@portico/management/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { assertOpen, invitationIn, updatePending } from '../../domain/organisations/invitations';
import { PassportError } from '../../errors';
import { readAuditLog } from '../../events/consumers/audit-log';
import { caller, defineOperation } from '../define';
import { actorOf, limitedTo, type ManagementContext } from './caller';
import { afterCursor, pageOf } from './cursor';

/**
 * The management API's organisations and audit events (docs/management-api.md). A deployment's key
 * sees every organisation; an organisation's key (made by its manager) only its own: another
 * organisation is SUBJECT_NOT_FOUND, exactly as for one that does not exist, and its audit events are
 * only its organisation's.
 */

type KeyContext = ManagementContext;

/** The organisation a key may see by this id: SUBJECT_NOT_FOUND for none, or another's. */
async function visible(ctx: KeyContext, id: string) {
  const own = limitedTo(ctx.caller);
  if (own !== null && own !== id) throw new PassportError('subjectNotFound');
  const row = await ctx.tx.selectFrom('subjects').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new PassportError('subjectNotFound');
  return row;
}

async function organisationsOf(
  tx: Kysely<Database>,
  rows: { id: string; name: string; is_frozen: number; created_at: number }[],
): Promise<ManagedOrganisation[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const deputies = await tx
    .selectFrom('deputies')
    .select(['subject_id', 'user_id', 'is_manager'])
    .where('subject_id', 'in', ids)
    .execute();
  return rows.map((row) => {
    const members = deputies.filter((d) => d.subject_id === row.id);
    return {
      id: row.id,
      name: row.name,
      frozen: Number(row.is_frozen) === 1,
      manager_user_id: members.find((d) => Number(d.is_manager) === 1)?.user_id ?? null,
      members: members.length,
      created_at: Number(row.created_at),
    };
  });
}

export const listOrganisations = defineOperation({
  name: 'management.organisations.list',
  input: PageQuery,
  output: OrganisationPage,
  caller: caller.apiKey('organisations:read', { organisation: true }),
  emits: [],
  async run(ctx, input) {
    const limit = input.limit ?? 20;
    let query = ctx.tx.selectFrom('subjects').select(['id', 'name', 'is_frozen', 'created_at']);
    const own = limitedTo(ctx.caller);
    if (own !== null) query = query.where('id', '=', own);
    if (input.cursor) query = query.where(afterCursor(input.cursor));
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    const { page, next } = pageOf(rows, limit);
    return { organisations: await organisationsOf(ctx.tx, page), next_cursor: next };
  },
});

export const getOrganisation = defineOperation({
  name: 'management.organisations.get',
  input: OrganisationIdParams,
  output: ManagedOrganisation,
  caller: caller.apiKey('organisations:read', { organisation: true }),
  emits: [],
  async run(ctx, input) {
    const [organisation] = await organisationsOf(ctx.tx, [await visible(ctx, input.id)]);
    if (!organisation) throw new PassportError('subjectNotFound');
    return organisation;
  },
});

export const listMembers = defineOperation({
  name: 'management.organisations.members.list',
  input: OrganisationIdParams,
  output: MemberList,
  caller: caller.apiKey('organisations:read', { organisation: true }),
  emits: [],
  async run(ctx, input) {
    const subject = await visible(ctx, input.id);
    const deputies = await ctx.tx
      .selectFrom('deputies')
      .selectAll()
      .where('subject_id', '=', subject.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const grants = await ctx.tx
      .selectFrom('deputy_roles')
      .innerJoin('roles', 'roles.id', 'deputy_roles.role_id')
      .select(['deputy_roles.deputy_id', 'roles.role_key'])
      .where('deputy_roles.subject_id', '=', subject.id)
      .execute();
    return {
      members: deputies.map((d) => ({
        id: d.id,
        user_id: d.user_id,
        name: d.deputy_name,
        manager: Number(d.is_manager) === 1,
        frozen: Number(d.is_frozen) === 1,
        roles: grants.filter((g) => g.deputy_id === d.id).map((g) => g.role_key),
        created_at: Number(d.created_at),
      })),
    };
  },
});

const parsedList = (text: string): string[] => {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
};

export const listRoles = defineOperation({
  name: 'management.organisations.roles.list',
  input: OrganisationIdParams,
  output: RoleList,
  caller: caller.apiKey('organisations:read', { organisation: true }),
  emits: [],
  async run(ctx, input) {
    const subject = await visible(ctx, input.id);
    const rows = await ctx.tx
      .selectFrom('roles')
      .selectAll()
      .where('subject_id', '=', subject.id)
      .orderBy('created_at')
      .orderBy('role_key')
      .execute();
    return {
      roles: rows.map((r) => ({
        key: r.role_key,
        name: r.role_name,
        permissions: parsedList(r.permissions),
        description: r.description,
        banned: Number(r.is_banned) === 1,
      })),
    };
  },
});

const invitationView = (row: Awaited<ReturnType<typeof invitationIn>>, now: number): ManagedInvitation => ({
  id: row.id,
  channel: row.channel,
  contact: row.contact,
  name: row.deputy_name,
  roles: parsedList(row.role_keys),
  state: row.state === 'pending' && Number(row.expires_at) <= now ? 'expired' : row.state,
  expires_at: Number(row.expires_at),
  created_at: Number(row.created_at),
});

export const listInvitations = defineOperation({
  name: 'management.organisations.invitations.list',
  input: OrganisationIdParams,
  output: InvitationList,
  caller: caller.apiKey('organisations:read', { organisation: true }),
  emits: [],
  async run(ctx, input) {
    const subject = await visible(ctx, input.id);
    const rows = await ctx.tx
      .selectFrom('invitations')
      .selectAll()
      .where('subject_id', '=', subject.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(500)
      .execute();
    const now = ctx.now();
    return { invitations: rows.map((row) => invitationView(row, now)) };
  },
});

/** Cancels a pending invitation: its link dies (INVITATION_USED, _CANCELLED when it is not pending). */
export const revokeInvitation = defineOperation({
  name: 'management.organisations.invitations.revoke',
  input: InvitationParams,
  output: ManagedInvitation,
  caller: caller.apiKey('organisations:write', { organisation: true }),
  emits: ['organisation.invitation.cancelled'],
  async run(ctx, input) {
    const subject = await visible(ctx, input.id);
    const row = await invitationIn(ctx.tx, subject.id, input.invitation_id);
    assertOpen(row);
    const now = ctx.now();
    if (!(await updatePending(ctx.tx, row.id, { state: 'cancelled', updated_at: now })))
      throw new PassportError('invitationUsed');
    ctx.emit({
      type: 'organisation.invitation.cancelled',
      stream: `subject:${subject.id}`,
      actor: actorOf(ctx.caller),
      subjectId: subject.id,
      targetUserId: null,
      data: { invitationId: row.id, channel: row.channel, reason: 'cancelled' },
    });
    return invitationView({ ...row, state: 'cancelled' }, now);
  },
});

/**
 * The audit log, newest first in cursor pages, filtered by type (or a prefix ending in a dot), actor,
 * the person it happened to, the organisation and time. An organisation's key reads its organisation's
 * events only (its `organisation` filter is forced to it).
 */
export const listAuditEvents = defineOperation({
  name: 'management.audit.list',
  input: AuditEventsQuery,
  output: AuditEventPage,
  caller: caller.apiKey('audit:read', { organisation: true }),
  emits: [],
  async run(ctx, input) {
    const own = limitedTo(ctx.caller);
    if (own !== null && input.organisation !== undefined && input.organisation !== own)
      throw new PassportError('subjectNotFound');
    if (input.cursor !== undefined && !/^\d{1,15}$/.test(input.cursor))
      throw new PassportError('invalidParam', { reason: 'cursor' });
    const organisation = own ?? input.organisation;
    const page = await readAuditLog(ctx.tx, {
      ...(input.type !== undefined ? { type: input.type } : {}),
      ...(input.actor !== undefined ? { actorUserId: input.actor } : {}),
      ...(input.user !== undefined ? { targetUserId: input.user } : {}),
      ...(organisation !== undefined ? { subjectId: organisation } : {}),
      ...(input.since !== undefined ? { from: input.since } : {}),
      ...(input.until !== undefined ? { to: input.until } : {}),
      ...(input.cursor !== undefined ? { before: input.cursor } : {}),
      limit: input.limit ?? 20,
    });
    return {
      events: page.entries.map((entry) => ({
        id: entry.id,
        type: entry.type,
        version: entry.version,
        actor: Object.fromEntries(Object.entries(entry.actor).map(([k, v]) => [k, String(v)])),
        organisation_id: entry.subject_id,
        user_id: entry.target_user_id,
        data: entry.data,
        ip: entry.ip,
        occurred_at: entry.occurred_at,
      })),
      next_cursor: page.next,
    };
  },
});
