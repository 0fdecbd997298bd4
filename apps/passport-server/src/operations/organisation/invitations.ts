import { type Static, Type } from 'typebox';
import { assertGrantable, assertHolds } from '../../access/statement';
import type { Admission } from '../../delivery/gate';
import { emailOf, mobileOf } from '../../domain/accounts/targets';
import { permissionsOfDeputy, roleIn, storedPermissions } from '../../domain/organisations/actors';
import { infosOf, stringListOf } from '../../domain/organisations/infos';
import {
  assertOpen,
  deletePending,
  holdsContact,
  type InvitationRow,
  type InviteChannel,
  insertInvitation,
  insertInvitedMember,
  invitationIn,
  invitationLink,
  invitationPage,
  invitationView,
  inviterOf,
  liveInvitation,
  markAccepted,
  newInviteTicket,
  roleKeysOf,
  rolesOfKeys,
  shownContact,
  subjectName,
  updatePending,
} from '../../domain/organisations/invitations';
import { pageOf } from '../../domain/organisations/organisations';
import { PassportError } from '../../errors';
import { safeRedirect } from '../../lib/redirect';
import { ORGANISATION_LIMITS } from '../../protocol';
import {
  InvitationData,
  InvitationPage,
  IssuedInvitationData,
  PreviewData,
  invitationSchemas as schemas,
} from '../../schemas/invitations';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';
import { emitInSubject } from './emit';

/**
 * Invitations: created by a member holding `invitation:create` for an identity (its name and roles,
 * never more than the inviter holds), delivered by SMS, e-mail or the workplace chat webhook or shown as
 * a link; resent (a new ticket, the old link dead), updated or cancelled while pending; previewed and
 * accepted by whoever proves the invited mobile or e-mail (signed in with it, or a code sent to it), or,
 * for chat and link invitations, by whoever holds the link — once: acceptance is a conditional UPDATE
 * on `state = 'pending'` inside the transaction that makes the membership.
 *
 * A message is admitted through the gate (`ctx.gate`) before anything is written, so a refused send
 * changes nothing; the operation answers the admitted send (`send`) and the adapter delivers it once the
 * change has committed (src/flows/organisation-invitations.ts).
 */

type IdentityContext = OperationContext<CallerOf<{ kind: 'identity'; permission: null }>>;

const subject = (input: { subject_uid: string }) => input.subject_uid;

/** An admitted invitation message, for the adapter to deliver after the commit; never on the wire. */
export interface InvitationSend {
  admission: Admission;
  channel: Exclude<InviteChannel, 'link'>;
  to: string;
  organisation: string;
  inviter: string;
  link: string;
  /** The invitation to withdraw when a first send fails (a resend keeps its row). */
  withdraw: { subject_uid: string; invite_id: string } | null;
}
const Send = Type.Unsafe<InvitationSend | null>({
  description: 'the admitted message the adapter delivers after the commit (never on the wire)',
});

/** An invitation just issued or resent: the view with its ticket and link, and the message to deliver. */
const Issued = Type.Object({ invitation: IssuedInvitationData, send: Send });
type IssuedOutput = Static<typeof Issued>;

/** The roles an invitation grants: each exists, is not banned and grants only what the caller holds. */
async function grantableRoles(ctx: IdentityContext, keys: readonly string[]) {
  for (const key of keys) {
    const role = await roleIn(ctx.tx, ctx.caller.subject.id, key);
    if (Number(role.is_banned) === 1) throw new PassportError('roleBanned');
    assertGrantable(ctx.access, ctx.caller.permissions, storedPermissions(role.permissions));
  }
}

const roleKeyList = (raw: string | readonly string[] | undefined) =>
  stringListOf('role_keys', raw, ORGANISATION_LIMITS.inviteRolesMax);

function contactOf(ctx: IdentityContext, channel: InviteChannel, raw: string | undefined): string | null {
  if (channel === 'link') return null;
  const value = (raw ?? '').trim();
  if (value === '') throw new PassportError('invalidParam', { field: 'contact' });
  if (channel === 'mobile') return mobileOf(ctx, value);
  if (channel === 'email') return emailOf(value);
  if (value.length > ORGANISATION_LIMITS.chatContactMax || /[\s<>]/.test(value))
    throw new PassportError('invalidParam', { field: 'contact' });
  return value;
}

/** The `extra` JSON object as stored; too large or not an object is INVALID_PARAM / INFOS_INVALID. */
export function extraOf(raw: string | undefined): string {
  if (raw === undefined || raw === '') return '{}';
  if (Buffer.byteLength(raw, 'utf8') > ORGANISATION_LIMITS.extraMaxBytes)
    throw new PassportError('invalidParam', { field: 'extra' });
  return infosOf('extra', raw) ?? '{}';
}

const checkedNext = (ctx: OperationContext, next: string | undefined) =>
  next === undefined ? null : safeRedirect(next, ctx.config.publicOrigin, ctx.config.allowedOrigins);

/** Admits the invitation's message through the gate (nothing to admit for a link). */
async function admitted(ctx: IdentityContext, row: InvitationRow) {
  if (row.channel === 'link' || row.contact === null) return null;
  const admission = await ctx.gate.admitInvitation({
    sender: ctx.caller.user.id,
    channel: row.channel,
    to: row.contact,
  });
  return { admission, channel: row.channel, to: row.contact };
}

interface IssueInput {
  subject_uid: string;
  deputy_name: string;
  role_keys?: string | readonly string[] | undefined;
  next_url?: string | undefined;
  extra?: string | undefined;
  contact?: string | undefined;
}

/** Creates an invitation on a channel, its message admitted first (the caller was checked by the adapter). */
async function issue(ctx: IdentityContext, channel: InviteChannel, input: IssueInput): Promise<IssuedOutput> {
  const { caller: actor } = ctx;
  const keys = roleKeyList(input.role_keys) ?? [];
  await grantableRoles(ctx, keys);
  const contact = contactOf(ctx, channel, input.contact);
  const extra = extraOf(input.extra);
  const now = ctx.now();
  const { ticket, hash } = newInviteTicket(ctx.secret);
  const row: InvitationRow = {
    id: ctx.newId(),
    subject_id: actor.subject.id,
    inviter_deputy_id: actor.deputy.id,
    inviter_name: actor.deputy.deputy_name,
    channel,
    contact,
    deputy_id: ctx.newId(),
    deputy_name: input.deputy_name,
    role_keys: JSON.stringify(keys),
    next_url: checkedNext(ctx, input.next_url),
    extra,
    ticket_hash: hash,
    state: 'pending',
    resent_count: 0,
    expires_at: now + ctx.config.inviteTtlSeconds * 1000,
    accepted_by: null,
    accepted_at: null,
    created_at: now,
    updated_at: now,
  };
  const link = invitationLink(ctx.config.publicOrigin, ticket);
  const send = await admitted(ctx, row);
  try {
    await insertInvitation(ctx.tx, row);
    emitInSubject(ctx, 'organisation.member.invited', {
      invitationId: row.id,
      channel,
      memberId: row.deputy_id,
      roleKeys: keys,
    });
  } catch (error) {
    await send?.admission.release();
    throw error;
  }
  return {
    invitation: { ...invitationView(row, now), invite_ticket: ticket, link },
    send: send && {
      ...send,
      organisation: actor.subject.name,
      inviter: row.inviter_name,
      link,
      withdraw: { subject_uid: row.subject_id, invite_id: row.id },
    },
  };
}

/** What the create operations share: each takes its channel's route input. */
const creating = {
  output: Issued,
  caller: caller.identity('invitation:create'),
  subject,
  emits: ['organisation.member.invited'],
} as const;

export const inviteByMobile = defineOperation({
  name: 'organisation.invitation.create.mobile',
  input: schemas.inviteByMobile.body,
  ...creating,
  run: (ctx, body) => issue(ctx, 'mobile', body),
});

export const inviteByEmail = defineOperation({
  name: 'organisation.invitation.create.email',
  input: schemas.inviteByEmail.body,
  ...creating,
  run: (ctx, body) => issue(ctx, 'email', body),
});

export const inviteByChat = defineOperation({
  name: 'organisation.invitation.create.chat',
  input: schemas.inviteByChat.body,
  ...creating,
  run: (ctx, body) => issue(ctx, 'chat', body),
});

/** A link invitation has no contact, whatever the body holds. */
export const inviteByLink = defineOperation({
  name: 'organisation.invitation.create.link',
  input: schemas.inviteByLink.body,
  ...creating,
  run: (ctx, body) => issue(ctx, 'link', { ...body, contact: undefined }),
});

/**
 * Adds a member with a role by inviting their mobile or e-mail (member:create and role:assign; the
 * role's permissions must all be the caller's): the person accepts, as any invitation is accepted.
 */
export const addMemberByInvitation = defineOperation({
  name: 'organisation.member.add',
  input: Type.Object({
    subject_uid: Type.String(),
    deputy_name: Type.String(),
    role_key: Type.String(),
    channel: Type.Union([Type.Literal('mobile'), Type.Literal('email')]),
    contact: Type.String(),
  }),
  output: Issued,
  caller: caller.identity('member:create'),
  subject,
  emits: ['organisation.member.invited'],
  run(ctx, input) {
    assertHolds(ctx.caller.permissions, 'role:assign');
    return issue(ctx, input.channel, {
      subject_uid: input.subject_uid,
      deputy_name: input.deputy_name,
      role_keys: [input.role_key],
      contact: input.contact,
    });
  },
});

/**
 * Withdraws an invitation whose first message failed: nobody got it, so it does not stay behind as a
 * pending invitation. Only its inviter, only while pending; the adapter calls it, no route mounts it.
 */
export const withdrawUndelivered = defineOperation({
  name: 'organisation.invitation.withdraw',
  input: Type.Object({ subject_uid: Type.String(), invite_id: Type.String() }),
  output: Type.Object({ withdrawn: Type.Boolean() }),
  caller: caller.identity(null),
  subject,
  emits: ['organisation.invitation.cancelled'],
  async run(ctx, input) {
    const row = await invitationIn(ctx.tx, ctx.caller.subject.id, input.invite_id);
    if (row.inviter_deputy_id !== ctx.caller.deputy.id) throw new PassportError('invitationNotFound');
    const withdrawn = await deletePending(ctx.tx, row.id);
    if (withdrawn)
      emitInSubject(ctx, 'organisation.invitation.cancelled', {
        invitationId: row.id,
        channel: row.channel,
        reason: 'undelivered',
      });
    return { withdrawn };
  },
});

/** The list's input: the query, and the page (from the path). */
const ListInput = Type.Object(
  {
    ...schemas.inviteList.querystring.properties,
    page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 999_999,
        description: 'set by the route: the path’s page on invite/list/{page}/, 1 on invite/list/',
      }),
    ),
  },
  { additionalProperties: true },
);

/** A subject's invitations, newest first, paged, filtered by state (`invitation:read`). */
export const listInvitations = defineOperation({
  name: 'organisation.invitation.list',
  input: ListInput,
  output: InvitationPage,
  caller: caller.identity('invitation:read'),
  subject,
  emits: [],
  async run(ctx, input) {
    const now = ctx.now();
    const page = input.page ?? 1;
    const { rows, total, limit } = await invitationPage(
      ctx.tx,
      ctx.caller.subject.id,
      { page, page_size: input.page_size, state: input.state },
      now,
    );
    return pageOf(
      rows.map((r) => invitationView(r, now)),
      total,
      { page, page_size: limit },
    );
  },
});

/** Cancels an invitation (`invitation:cancel`): its link dies. */
export const cancelInvitation = defineOperation({
  name: 'organisation.invitation.cancel',
  input: schemas.inviteCancel.body,
  output: InvitationData,
  caller: caller.identity('invitation:cancel'),
  subject,
  emits: ['organisation.invitation.cancelled'],
  async run(ctx, input) {
    const row = await invitationIn(ctx.tx, ctx.caller.subject.id, input.invite_id);
    assertOpen(row);
    const now = ctx.now();
    if (!(await updatePending(ctx.tx, row.id, { state: 'cancelled', updated_at: now })))
      throw new PassportError('invitationUsed');
    emitInSubject(ctx, 'organisation.invitation.cancelled', {
      invitationId: row.id,
      channel: row.channel,
      reason: 'cancelled',
    });
    return invitationView({ ...row, state: 'cancelled', updated_at: now }, now);
  },
});

/**
 * Sends an invitation again with a new ticket and expiry (`invitation:update`); the old link dies. The
 * message is admitted first: a refused resend rotates nothing.
 */
export const resendInvitation = defineOperation({
  name: 'organisation.invitation.resend',
  input: schemas.inviteResend.body,
  output: Issued,
  caller: caller.identity('invitation:update'),
  subject,
  emits: ['organisation.invitation.resent'],
  async run(ctx, input) {
    const row = await invitationIn(ctx.tx, ctx.caller.subject.id, input.invite_id);
    assertOpen(row);
    const send = await admitted(ctx, row);
    const now = ctx.now();
    const { ticket, hash } = newInviteTicket(ctx.secret);
    const next: InvitationRow = {
      ...row,
      ticket_hash: hash,
      resent_count: Number(row.resent_count) + 1,
      expires_at: now + ctx.config.inviteTtlSeconds * 1000,
      next_url: input.next_url === undefined ? row.next_url : checkedNext(ctx, input.next_url),
      updated_at: now,
    };
    const { ticket_hash, resent_count, expires_at, next_url } = next;
    if (
      !(await updatePending(ctx.tx, row.id, {
        ticket_hash,
        resent_count,
        expires_at,
        next_url,
        updated_at: now,
      }))
    ) {
      await send?.admission.release();
      throw new PassportError('invitationUsed');
    }
    emitInSubject(ctx, 'organisation.invitation.resent', {
      invitationId: row.id,
      channel: row.channel,
      resentCount: resent_count,
    });
    const link = invitationLink(ctx.config.publicOrigin, ticket);
    return {
      invitation: { ...invitationView(next, now), invite_ticket: ticket, link },
      send: send && {
        ...send,
        organisation: await subjectName(ctx.tx, row.subject_id),
        inviter: row.inviter_name,
        link,
        withdraw: null,
      },
    };
  },
});

/** Changes the name or roles of an open invitation (`invitation:update`; roles only within one's own). */
export const updateInvitation = defineOperation({
  name: 'organisation.invitation.update',
  input: schemas.inviteUpdate.body,
  output: InvitationData,
  caller: caller.identity('invitation:update'),
  subject,
  emits: ['organisation.invitation.updated'],
  async run(ctx, input) {
    const row = await invitationIn(ctx.tx, ctx.caller.subject.id, input.invite_id);
    if (input.deputy_identity_id !== undefined && input.deputy_identity_id !== row.deputy_id)
      throw new PassportError('invitationNotFound');
    assertOpen(row);
    const keys = roleKeyList(input.role_keys);
    if (keys) await grantableRoles(ctx, keys);
    const now = ctx.now();
    const next = {
      ...row,
      deputy_name: input.deputy_name ?? row.deputy_name,
      role_keys: keys ? JSON.stringify(keys) : row.role_keys,
      updated_at: now,
    };
    const { deputy_name, role_keys } = next;
    if (!(await updatePending(ctx.tx, row.id, { deputy_name, role_keys, updated_at: now })))
      throw new PassportError('invitationUsed');
    // Which fields changed, never the name itself; an update that changes nothing is no event.
    const changed = [
      ...(deputy_name !== row.deputy_name ? (['deputy_name'] as const) : []),
      ...(role_keys !== row.role_keys ? (['role_keys'] as const) : []),
    ];
    if (changed.length > 0)
      emitInSubject(ctx, 'organisation.invitation.updated', {
        invitationId: row.id,
        channel: row.channel,
        changed,
        roleKeys: roleKeysOf(next),
      });
    return invitationView(next, now);
  },
});

/** What the holder of a ticket may see: organisation, inviter, role names, masked contact. */
export const checkInvitation = defineOperation({
  name: 'organisation.invitation.preview',
  input: schemas.inviteCheck.body,
  output: PreviewData,
  caller: caller.anonymous,
  emits: [],
  async run(ctx, input) {
    const row = await liveInvitation(ctx.tx, ctx.secret, input.invite_ticket, ctx.now());
    const keys = roleKeysOf(row);
    const roles = await rolesOfKeys(ctx.tx, row.subject_id, keys);
    return {
      subject_name: await subjectName(ctx.tx, row.subject_id),
      inviter_name: row.inviter_name,
      role_names: keys.map((k) => roles.find((r) => r.role_key === k)?.role_name ?? k),
      channel: row.channel,
      contact: row.channel === 'chat' ? `${(row.contact ?? '').slice(0, 2)}***` : shownContact(row),
      expires_at: Number(row.expires_at),
    };
  },
});

/**
 * Where a code proving the invited contact goes: the invited mobile or e-mail, never an address the
 * caller chooses. The adapter sends the code (the code route's rules) and answers it masked.
 */
export const invitationCodeTarget = defineOperation({
  name: 'organisation.invitation.code_target',
  input: schemas.inviteSendCode.body,
  output: Type.Object({
    channel: Type.Union([Type.Literal('mobile'), Type.Literal('email')]),
    contact: Type.String(),
  }),
  caller: caller.anonymous,
  emits: [],
  async run(ctx, input) {
    const row = await liveInvitation(ctx.tx, ctx.secret, input.invite_ticket, ctx.now());
    if ((row.channel !== 'mobile' && row.channel !== 'email') || row.contact === null)
      throw new PassportError('invitationSignInRequired');
    return { channel: row.channel, contact: row.contact };
  },
});

/**
 * Accepts an invitation for the person the adapter proved: a mobile or e-mail invitation needs the
 * account to hold that contact or the request to have proved it by code; chat and link invitations go
 * to whoever holds the link. The membership and the role links are made in the transaction that marks
 * the invitation accepted, with the roles as they are now and within what the inviter holds now. The
 * adapter signs the person in to the new identity afterwards, through completeSignIn.
 */
export const acceptInvitation = defineOperation({
  name: 'organisation.invitation.accept',
  input: schemas.inviteAccept.body,
  output: Type.Object({
    subject_id: Type.String(),
    deputy_id: Type.String(),
    next_url: Type.Union([Type.String(), Type.Null()]),
  }),
  caller: caller.person,
  emits: ['organisation.member.joined'],
  async run(ctx, input) {
    const { user, provenContact } = ctx.caller;
    const now = ctx.now();
    const row = await liveInvitation(ctx.tx, ctx.secret, input.invite_ticket, now);
    if (input.extra !== undefined) extraOf(input.extra);
    const bound = row.channel === 'mobile' || row.channel === 'email';
    const proven = provenContact?.channel === row.channel && provenContact.value === row.contact;
    if (bound && !holdsContact(user, row) && !proven) throw new PassportError('invitationContactMismatch');
    if (user.cancel_requested_at !== null || user.erased_at !== null)
      throw new PassportError('invitationAccountClosed');
    if (Number(user.is_frozen) === 1) throw new PassportError('accountFrozen');

    await markAccepted(ctx.tx, row, user.id, now);
    const keys = roleKeysOf(row);
    const roles = await rolesOfKeys(ctx.tx, row.subject_id, keys);
    if (roles.length !== keys.length) throw new PassportError('roleNotFound');
    if (roles.some((r) => Number(r.is_banned) === 1)) throw new PassportError('roleBanned');
    const inviter = await inviterOf(ctx.tx, row);
    if (!inviter || Number(inviter.is_frozen) === 1) throw new PassportError('invitationCancelled');
    // The roles within what the inviter holds now, not when it invited.
    const held = await permissionsOfDeputy(ctx.tx, ctx.access, inviter);
    for (const role of roles)
      for (const p of storedPermissions(role.permissions))
        if (!held.has(p)) throw new PassportError('grantExceedsOwn', { permission: p });
    await insertInvitedMember(ctx.tx, row, user.id, roles, now);
    ctx.emit({
      type: 'organisation.member.joined',
      stream: `subject:${row.subject_id}`,
      actor: { kind: 'person', userId: user.id },
      subjectId: row.subject_id,
      targetUserId: user.id,
      data: {
        invitationId: row.id,
        channel: row.channel,
        memberId: row.deputy_id,
        roleKeys: keys,
        inviterId: row.inviter_deputy_id,
      },
    });
    return { subject_id: row.subject_id, deputy_id: row.deputy_id, next_url: row.next_url };
  },
});
