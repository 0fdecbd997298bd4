import { useSession } from '@portico/account-react';
import { AuditLog } from '../audit/audit-log';
import { IdentityPicker } from '../screens/identity-picker';
import { Connection } from './connection';
import { CreateOrganisation } from './create-organisation';
import { Domains } from './domains';
import { Explain } from './explain';
import { Invitations } from './invitations';
import { Leave } from './leave';
import { ManagerTransfer } from './manager-transfer';
import { Members } from './members';
import { Roles } from './roles';
import { Settings } from './settings';

/**
 * The organisation console: create an organisation, pick the identity to act as, and, as an
 * organisation identity, what its permissions allow — members (add, rename, freeze, remove, their roles
 * and effective permissions, take a role back), roles (create, edit, ban, assign), why a member holds a
 * permission, the organisation's details and frozen state, invitations, the manager transfer,
 * the company domains and the single sign-on connection, leaving and the audit log (also while the organisation is frozen). The server decides every permission; the console only hides what the active identity's
 * `org.permissions` (from account/info) cannot do. Every destructive action asks first.
 */
export function OrganisationConsole() {
  const session = useSession();
  const org = session.data?.org;
  const held = new Set(org?.permissions ?? []);
  const can = (permission: string) => held.has(permission);
  const active = org && !org.is_frozen ? { org, can } : null;
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
      {active && <ManagerTransfer {...active} />}
      {active && <Leave {...active} />}
      {org && can('audit:read') && <AuditLog org={org} />}
    </div>
  );
}
