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

export const organisationEvents = [
  defineEvent({
    type: 'organisation.created',
    version: 1,
    summary: 'An organisation was created; its creator is its manager.',
    data: Type.Object({ name: Type.String() }),
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
] as const;

/** Who manages the organisation (src/operations/organisation/transfer.ts). */
export const managerEvents = [
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
