import { type AccountClient, listAccountActivity } from '@portico/account-sdk';
import { type AuditFilters, listAuditLog } from '@portico/affiliate-sdk';
import { queryOptions } from '@tanstack/react-query';
import { organisationQueryKeys } from '../organisations/organisation-keys';
import { accountQueryKeys } from '../query-keys';

/** How many of the person's own entries a page of recent activity holds. */
const ACTIVITY_PAGE = 10;

/**
 * One page of the signed-in person's recent security activity, newest first (`listAccountActivity`):
 * the first page without `cursor`, the next with the page before's `next_cursor`.
 */
export const accountActivityQueryOptions = (client: AccountClient, cursor = '') =>
  queryOptions({
    queryKey: [...accountQueryKeys.activity, cursor] as const,
    queryFn: ({ signal }) =>
      listAccountActivity(client, { count: ACTIVITY_PAGE, ...(cursor ? { cursor } : {}) }, { signal }),
  });

/**
 * One page of an organisation's audit log, filtered, newest first, with the members' names
 * (`listAuditLog`; `audit:read`). Every organisation change refreshes it (`organisationQueryKeys.audit`).
 */
export const auditLogQueryOptions = (
  client: AccountClient,
  sid: string,
  filters: AuditFilters = {},
  cursor = '',
) =>
  queryOptions({
    queryKey: organisationQueryKeys.audit(sid, filters, cursor),
    queryFn: ({ signal }) =>
      listAuditLog(client, { sec_subject_uid: sid, ...filters, ...(cursor ? { cursor } : {}) }, { signal }),
  });
