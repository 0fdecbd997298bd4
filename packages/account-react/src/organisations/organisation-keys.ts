import type { AuditFilters } from '@portico/affiliate-sdk';
import { accountQueryKeys } from '../query-keys';

const ORG = [...accountQueryKeys.all, 'organisation'] as const;

/**
 * Keys of the organisation queries, one branch per organisation (`sec_subject_uid`) so a change
 * refreshes exactly the lists it touches. Under `accountQueryKeys.all`: a sign-in or sign-out drops them.
 */
export const organisationQueryKeys = {
  all: ORG,
  /** The identities the signed-in person may act as (every organisation). */
  identities: [...ORG, 'identities'] as const,
  /** Everything cached about one organisation. */
  of: (sid: string) => [...ORG, sid] as const,
  subject: (sid: string) => [...ORG, sid, 'subject'] as const,
  members: (sid: string) => [...ORG, sid, 'members'] as const,
  roles: (sid: string) => [...ORG, sid, 'roles'] as const,
  resources: (sid: string) => [...ORG, sid, 'resources'] as const,
  /** Every member's permissions (`permissions(sid)`), or one member's. */
  permissions: (sid: string, identity?: string) =>
    identity === undefined
      ? ([...ORG, sid, 'permissions'] as const)
      : ([...ORG, sid, 'permissions', identity] as const),
  /** Every invitation list (`invitations(sid)`), or the one filtered by `state` ('' for all). */
  invitations: (sid: string, state?: string) =>
    state === undefined
      ? ([...ORG, sid, 'invitations'] as const)
      : ([...ORG, sid, 'invitations', state] as const),
  /** Every page of the audit log (`audit(sid)`), or one page of one filter. */
  audit: (sid: string, filters?: AuditFilters, cursor = '') =>
    filters === undefined
      ? ([...ORG, sid, 'audit'] as const)
      : ([...ORG, sid, 'audit', filters, cursor] as const),
  transfer: (sid: string) => [...ORG, sid, 'transfer'] as const,
  /** The organisation's e-mail domains, verified or not. */
  domains: (sid: string) => [...ORG, sid, 'domains'] as const,
  /** The organisation's single sign-on connection. */
  connection: (sid: string) => [...ORG, sid, 'connection'] as const,
  /** The organisation's single sign-on policy (requiring it, the role rules). */
  policy: (sid: string) => [...ORG, sid, 'policy'] as const,
  /** An invitation's preview by its ticket (before the person is a member). */
  invitation: (ticket: string) => [...ORG, 'invitation', ticket] as const,
};
