import { Type } from 'typebox';
import { defineEvent } from '../define';

/** What happens in an organisation (a subject): its life, its members, its roles. */

const RoleKey = Type.String();
const Permissions = Type.Array(Type.String());
/** A role's editable fields, as they were or are. */
const RoleFields = Type.Object({
  roleName: Type.String(),
  permissions: Permissions,
  description: Type.String(),
});
/** A role link: the role and the member identity (a deputy id); the event's target is its account. */
const RoleLink = Type.Object({ roleKey: RoleKey, memberId: Type.String() });

/** The fields of an organisation an update may change (their values are not in the event). */
const SubjectField = Type.Union([
  Type.Literal('subject_name'),
  Type.Literal('base_infos'),
  Type.Literal('detail_infos'),
  Type.Literal('identity_card'),
  Type.Literal('real_name'),
]);
/**
 * A member identity (a deputy id), its name then and its roles then, so the log still names someone
 * who is no longer a member; the event's target is its account.
 */
const Member = Type.Object({
  memberId: Type.String(),
  memberName: Type.String(),
  roleKeys: Type.Array(RoleKey),
});
/**
 * Invitations and the members they bring. No event carries the invited mobile, e-mail or chat id (only
 * the channel) nor the ticket: the invitation's id leads to the row, which erasure empties.
 */
const InviteChannel = Type.Union([
  Type.Literal('mobile'),
  Type.Literal('email'),
  Type.Literal('chat'),
  Type.Literal('link'),
]);
const invitationEvents = [
  defineEvent({
    type: 'organisation.member.invited',
    version: 1,
    summary: 'A member was invited on a channel, as an identity to be, with these roles.',
    data: Type.Object({
      invitationId: Type.String(),
      channel: InviteChannel,
      /** The identity acceptance makes (a deputy id). */
      memberId: Type.String(),
      roleKeys: Type.Array(RoleKey),
    }),
  }),
  defineEvent({
    type: 'organisation.invitation.cancelled',
    version: 1,
    summary: 'An invitation was cancelled (its link died), or withdrawn because its message failed.',
    data: Type.Object({
      invitationId: Type.String(),
      channel: InviteChannel,
      reason: Type.Union([Type.Literal('cancelled'), Type.Literal('undelivered')]),
    }),
  }),
  defineEvent({
    type: 'organisation.invitation.updated',
    version: 1,
    summary: 'A pending invitation’s identity name or roles were changed: which fields, and the roles now.',
    data: Type.Object({
      invitationId: Type.String(),
      channel: InviteChannel,
      changed: Type.Array(Type.Union([Type.Literal('deputy_name'), Type.Literal('role_keys')])),
      roleKeys: Type.Array(RoleKey),
    }),
  }),
  defineEvent({
    type: 'organisation.invitation.resent',
    version: 1,
    summary: 'A pending invitation was sent again with a new link (the old one died).',
    data: Type.Object({
      invitationId: Type.String(),
      channel: InviteChannel,
      /** How many times it has been resent, this one included. */
      resentCount: Type.Integer(),
    }),
  }),
  defineEvent({
    type: 'organisation.member.joined',
    version: 1,
    summary: 'A person accepted an invitation and became a member with its roles.',
    data: Type.Object({
      invitationId: Type.String(),
      channel: InviteChannel,
      memberId: Type.String(),
      roleKeys: Type.Array(RoleKey),
      /** The inviter's identity, while it exists. */
      inviterId: Type.Union([Type.String(), Type.Null()]),
    }),
  }),
] as const;

export const organisationEvents = [
  defineEvent({
    type: 'organisation.created',
    version: 1,
    summary: 'An organisation was created; its creator is its manager.',
    data: Type.Object({ name: Type.String() }),
  }),
  // The organisation's own life and its members (operations/organisation/subjects.ts, members.ts).
  defineEvent({
    type: 'organisation.updated',
    version: 1,
    summary: 'An organisation’s details were changed; `changed` names the fields (never their values).',
    data: Type.Object({ name: Type.String(), changed: Type.Array(SubjectField) }),
  }),
  defineEvent({
    type: 'organisation.frozen',
    version: 1,
    summary: 'An organisation was frozen: only its manager can act in it, to thaw it.',
    data: Type.Object({ name: Type.String() }),
  }),
  defineEvent({
    type: 'organisation.thawed',
    version: 1,
    summary: 'A frozen organisation was thawed: its members can act in it again.',
    data: Type.Object({ name: Type.String() }),
  }),
  defineEvent({
    type: 'organisation.second_factor_changed',
    version: 1,
    summary:
      'Whether members must use a second factor (a passkey or an authenticator app) to act as the organisation’s identities was changed.',
    data: Type.Object({ name: Type.String(), required: Type.Boolean() }),
  }),
  defineEvent({
    type: 'organisation.member.removed',
    version: 1,
    summary: 'A member was removed, with their roles; their sessions in it ended.',
    data: Member,
    personal: ['memberName'],
  }),
  defineEvent({
    type: 'organisation.member.left',
    version: 1,
    summary: 'A member left the organisation, with their roles; their sessions in it ended.',
    data: Member,
    personal: ['memberName'],
  }),
  defineEvent({
    type: 'organisation.member.frozen',
    version: 1,
    summary: 'A member identity was frozen: it cannot act in the organisation until thawed.',
    data: Member,
    personal: ['memberName'],
  }),
  defineEvent({
    type: 'organisation.member.thawed',
    version: 1,
    summary: 'A frozen member identity was thawed.',
    data: Member,
    personal: ['memberName'],
  }),
  defineEvent({
    type: 'organisation.role.created',
    version: 1,
    summary: 'A role was created with these permissions.',
    data: Type.Object({ roleKey: RoleKey, roleName: Type.String(), permissions: Permissions }),
  }),
  defineEvent({
    type: 'organisation.role.updated',
    version: 1,
    summary: 'A role was renamed, described or given other permissions; `previous` is what it was.',
    data: Type.Object({ roleKey: RoleKey, ...RoleFields.properties, previous: RoleFields }),
  }),
  defineEvent({
    type: 'organisation.role.banned',
    version: 1,
    summary: 'A role was banned: it grants nothing and cannot be given until the ban is lifted.',
    data: Type.Object({ roleKey: RoleKey }),
  }),
  defineEvent({
    type: 'organisation.role.unbanned',
    version: 1,
    summary: 'A role’s ban was lifted: its holders have its permissions again.',
    data: Type.Object({ roleKey: RoleKey }),
  }),
  defineEvent({
    type: 'organisation.role.granted',
    version: 1,
    summary: 'A member was given a role (one event per member).',
    data: RoleLink,
  }),
  defineEvent({
    type: 'organisation.role.revoked',
    version: 1,
    summary: 'A role was taken from a member (one event per member).',
    data: RoleLink,
  }),
  ...invitationEvents,
] as const;

/** Who manages the organisation (src/operations/organisation/transfer.ts). */
export const managerEvents = [
  defineEvent({
    type: 'organisation.manager.transfer_started',
    version: 1,
    summary:
      'The manager named a member to hand the organisation over to; it waits for that member to accept. The actor is the manager, the target the named member’s account.',
    data: Type.Object({
      from: Type.String({ description: 'the manager identity' }),
      to: Type.String({ description: 'the identity named' }),
      expiresAt: Type.Integer({ description: 'ms since the epoch' }),
    }),
  }),
  defineEvent({
    type: 'organisation.manager.transfer_abandoned',
    version: 1,
    summary:
      'A pending hand-over was abandoned by either side; the actor is the side that abandoned it, the target the other side’s account.',
    data: Type.Object({
      from: Type.String({ description: 'the manager identity' }),
      to: Type.String({ description: 'the identity named' }),
    }),
  }),
  defineEvent({
    type: 'organisation.manager.transferred',
    version: 1,
    summary:
      'The named member accepted the manager’s hand-over and manages the organisation now: `from` and `to` are the member identities; the actor is the new manager, the target the old one’s account.',
    data: Type.Object({
      from: Type.String({ description: 'the identity that was the manager' }),
      to: Type.String({ description: 'the identity that is the manager now' }),
    }),
  }),
] as const;
