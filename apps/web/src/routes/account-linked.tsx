import { LinkedAccounts, loginHref, useThirdPartyT } from '@portico/account-pages';
import { useSession } from '@portico/account-react';
import { Navigate, redirect, useLocation } from 'react-router';
import { PageHeader } from '../components/page-header';
import { loadSession } from '../lib/account';

/** Signed out: to login, which comes back here once signed in. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/account/linked'));
  return session;
}

/** The account centre's linked accounts (GitHub, Google): link, use another account, unlink. */
export function Component() {
  const t = useThirdPartyT();
  const session = useSession();
  const location = useLocation();
  if (session.data === null) return <Navigate to={loginHref(location.pathname)} replace />;
  return (
    <div className="container workbench">
      <PageHeader title={t('tp.linked.title')} subtitle={t('tp.linked.subtitle')} />
      <section className="card" aria-label={t('tp.linked.title')}>
        <LinkedAccounts returnTo="/account/linked" />
      </section>
    </div>
  );
}
