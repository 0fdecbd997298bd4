import { LinkedAccounts, loginHref, useThirdPartyT } from '@portico/account-pages';
import { useSession } from '@portico/account-react';
import { Navigate, redirect, useLocation } from 'react-router';
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
      <header className="page-header">
        <h1>{t('tp.linked.title')}</h1>
        <p className="muted">{t('tp.linked.subtitle')}</p>
      </header>
      <section className="card" aria-label={t('tp.linked.title')}>
        <LinkedAccounts returnTo="/account/linked" />
      </section>
    </div>
  );
}
