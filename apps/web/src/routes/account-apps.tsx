import { AuthorizedApps, loginHref, useAuthorizedAppsT } from '@portico/account-pages';
import { useSession } from '@portico/account-react';
import { Navigate, redirect, useLocation } from 'react-router';
import { PageHeader } from '../components/page-header';
import { loadSession } from '../lib/account';

/** Signed out: to login, which comes back here once signed in. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/account/apps'));
  return session;
}

/** The account centre's authorised apps (open authorization, issue 16): the list, and Revoke. */
export function Component() {
  const t = useAuthorizedAppsT();
  const session = useSession();
  const location = useLocation();
  if (session.data === null) return <Navigate to={loginHref(location.pathname)} replace />;
  return (
    <div className="container workbench">
      <PageHeader title={t('apps.title')} subtitle={t('apps.subtitle')} />
      <section className="card" aria-label={t('apps.title')}>
        <AuthorizedApps />
      </section>
    </div>
  );
}
