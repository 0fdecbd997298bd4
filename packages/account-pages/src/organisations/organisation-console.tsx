import { organisationQueryOptions, useAccountClient, useSession } from '@portico/account-react';
import { OrganisationErrorCode } from '@portico/affiliate-sdk/protocol';
import { useQuery } from '@tanstack/react-query';
import { AuditLog } from '../audit/audit-log';
import { IdentityPicker } from '../screens/identity-picker';
import { Connection } from './connection';
import { CreateOrganisation } from './create-organisation';
import { Domains } from './domains';
import { EnrolFactor } from './enrol-factor';
import { Explain } from './explain';
import { Invitations } from './invitations';
import { Leave } from './leave';
import { ManagerTransfer } from './manager-transfer';
import { Members } from './members';
import { Roles } from './roles';
import { Settings } from './settings';
import { SsoPolicy } from './sso-policy';

/**
 * The organisation console: create an organisation, pick the identity to act as, and, as an
 * organisation identity, what its permissions allow — members (add, rename, freeze, remove, their roles
 * and effective permissions, take a role back), roles (create, edit, ban, assign), why a member holds a
 * permission, the organisation's details and frozen state, invitations, the manager transfer,
 * the company domains and the single sign-on connection, leaving and the audit log (also while the organisation is frozen). The server decides every permission; the console only hides what the active identity's
 * `org.permissions` (from account/info) cannot do. Every destructive action asks first.
 */
export function OrganisationConsole({
  enrolFactorHref = '/account/security?next=/org',
}: {
  /** Where a member sets up a second factor when the organisation requires one (its way back in `next`). */
  enrolFactorHref?: string;
} = {}) {
  const session = useSession();
  const client = useAccountClient();
  const org = session.data?.org;
  const held = new Set(org?.permissions ?? []);
  const can = (permission: string) => held.has(permission);
  const active = org && !org.is_frozen ? { org, can } : null;
  // The organisation may require a second factor: its details (any member may read them) tell first.
  // A factor the session has not proved recently is a step-up, which the provider's dialog answers.
  const subject = useQuery({
    ...organisationQueryOptions(client, org?.sec_subject_uid ?? ''),
    enabled: Boolean(active),
  });
  const code = (subject.error as { error_code?: unknown } | null)?.error_code;
  if (org && code === OrganisationErrorCode.secondFactorRequired)
    return (
      <div className="workbench-grid">
        <IdentityPicker />
        <EnrolFactor organisation={org.subject_name} href={enrolFactorHref} />
      </div>
    );
  return (
    <div className="workbench-grid">
      <IdentityPicker />
      {!org && <CreateOrganisation />}
      {active && <Members {...active} />}
      {active && can('role:read') && <Roles {...active} />}
      {active && <Explain {...active} />}
      {org && (org.is_manager || can('subject:update')) && <Settings org={org} can={can} />}
      {active && (can('invitation:create') || can('invitation:read')) && <Invitations {...active} />}
      {active && can('sso:manage') && <Domains {...active} />}
      {active && can('sso:manage') && <Connection {...active} />}
      {active && can('sso:manage') && <SsoPolicy {...active} />}
      {active && <ManagerTransfer {...active} />}
      {active && <Leave {...active} />}
      {org && can('audit:read') && <AuditLog org={org} />}
    </div>
  );
}
