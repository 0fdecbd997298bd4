import { loginHref, OrganisationConsole, useOrgT } from '@portico/account-pages';
import { useSession } from '@portico/account-react';
import { Navigate, redirect, useLocation } from 'react-router';
import { PageHeader } from '../components/page-header';
import { loadSession } from '../lib/account';

/** Signed out: to login, which comes back here once signed in. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/org'));
  return session;
}

/** The organisation console (the shared screen): identities, members, roles, invitations, settings. */
export function Component() {
  const t = useOrgT();
  const session = useSession();
  const location = useLocation();
  if (session.data === null) return <Navigate to={loginHref(location.pathname)} replace />;
  return (
    <div className="container workbench">
      <PageHeader title={t('org.title')} subtitle={t('org.subtitle')} />
      <OrganisationConsole />
    </div>
  );
}
