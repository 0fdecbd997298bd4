import type { AccountClient } from '@portico/account-sdk';
import { isAccountError } from '@portico/account-sdk';
import { enterpriseErrors } from '@portico/account-sdk/protocol';
import {
  type InvitationState,
  listDeputies,
  listDomains,
  listInvitations,
  listRoles,
  pendingManagerTransfer,
  resourceList,
  ssoConnectionInfo,
  ssoPolicyInfo,
  subjectInfo,
  subjectLoginList,
  userPermissions,
} from '@portico/affiliate-sdk';
import { queryOptions } from '@tanstack/react-query';
import { organisationQueryKeys as keys } from './organisation-keys';

/** One page holds a console's lists: the passport's largest page. */
const PAGE = { page_size: 100 } as const;

/** The identities the signed-in person may act as, the personal one first (`subjectLoginList`). */
export const identitiesQueryOptions = (client: AccountClient) =>
  queryOptions({
    queryKey: keys.identities,
    queryFn: ({ signal }) => subjectLoginList(client, {}, { signal }),
  });

/** An organisation's name, details and frozen state (`subjectInfo`; any member). */
export const organisationQueryOptions = (client: AccountClient, sid: string) =>
  queryOptions({
    queryKey: keys.subject(sid),
    queryFn: ({ signal }) => subjectInfo(client, { sec_subject_uid: sid }, { signal }),
  });

/** An organisation's members with their roles (`listDeputies`; `member:read`). */
export const membersQueryOptions = (client: AccountClient, sid: string) =>
  queryOptions({
    queryKey: keys.members(sid),
    queryFn: ({ signal }) => listDeputies(client, { sec_subject_uid: sid, ...PAGE }, { signal }),
  });

/** An organisation's roles with their permissions (`listRoles`; `role:read`). */
export const rolesQueryOptions = (client: AccountClient, sid: string) =>
  queryOptions({
    queryKey: keys.roles(sid),
    queryFn: ({ signal }) => listRoles(client, { subject_uid: sid, ...PAGE }, { signal }),
  });

/** The access statement's permissions as `resource:action` strings (`resourceList`; any member). */
export const permissionCatalogueQueryOptions = (client: AccountClient, sid: string) =>
  queryOptions({
    queryKey: keys.resources(sid),
    queryFn: async ({ signal }) =>
      (await resourceList(client, { subject_uid: sid, ...PAGE }, { signal })).items.flatMap((row) =>
        row.actions.map((action) => `${row.resource}:${action}`),
      ),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** A member's effective permissions (`userPermissions`; one's own, another's with `member:read`). */
export const memberPermissionsQueryOptions = (client: AccountClient, sid: string, identity: string) =>
  queryOptions({
    queryKey: keys.permissions(sid, identity),
    queryFn: ({ signal }) => userPermissions(client, { subject_uid: sid, identity_id: identity }, { signal }),
  });

/** An organisation's invitations, optionally of one state (`listInvitations`; `invitation:read`). */
export const invitationsQueryOptions = (
  client: AccountClient,
  sid: string,
  state: InvitationState | '' = '',
) =>
  queryOptions({
    queryKey: keys.invitations(sid, state),
    queryFn: ({ signal }) =>
      listInvitations(client, { subject_uid: sid, page_size: 50, ...(state ? { state } : {}) }, { signal }),
  });

/** The pending manager transfer the caller is a side of, and the current manager. */
export const pendingTransferQueryOptions = (client: AccountClient, sid: string) =>
  queryOptions({
    queryKey: keys.transfer(sid),
    queryFn: ({ signal }) => pendingManagerTransfer(client, { subject_uid: sid }, { signal }),
  });

/** An organisation's e-mail domains with the TXT record each needs (`listDomains`; `sso:manage`). */
export const domainsQueryOptions = (client: AccountClient, sid: string) =>
  queryOptions({
    queryKey: keys.domains(sid),
    queryFn: async ({ signal }) => (await listDomains(client, { subject_uid: sid }, { signal })).items,
  });

/**
 * An organisation's OpenID Connect connection, or null when it has none (`ssoConnectionInfo`;
 * `sso:manage`).
 */
export const ssoConnectionQueryOptions = (client: AccountClient, sid: string) =>
  queryOptions({
    queryKey: keys.connection(sid),
    queryFn: ({ signal }) =>
      ssoConnectionInfo(client, { subject_uid: sid }, { signal }).catch((error: unknown) => {
        if (isAccountError(error) && error.error_code === enterpriseErrors.codes.connectionNotFound.code)
          return null;
        throw error;
      }),
  });

/** An organisation's single sign-on policy: requiring it, the default role and the role rules (`ssoPolicyInfo`; `sso:manage`). */
export const ssoPolicyQueryOptions = (client: AccountClient, sid: string) =>
  queryOptions({
    queryKey: keys.policy(sid),
    queryFn: ({ signal }) => ssoPolicyInfo(client, { subject_uid: sid }, { signal }),
  });
