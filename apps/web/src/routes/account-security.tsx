import {
  AccountSecurity,
  loginHref,
  RecentActivity,
  SignInChanges,
  safeNext,
  useSecurityT,
} from '@portico/account-pages';
import { useSession } from '@portico/account-react';
import { Link, Navigate, redirect, useLoaderData, useLocation, useSearchParams } from 'react-router';
import { PageHeader } from '../components/page-header';
import { loadSession } from '../lib/account';

/** Signed out: to login, which comes back here once signed in. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/account/security'));
  return session;
}

/** The account centre's security page: mobile, e-mail, username and password (issue 14). */
export function Component() {
  const t = useSecurityT();
  const initial = useLoaderData<typeof loader>();
  const session = useSession();
  const location = useLocation();
  // Sent here to set up a factor (an organisation that requires one): the way back once it is set up.
  const next = safeNext(useSearchParams()[0].get('next'));
  if (session.data === null) return <Navigate to={loginHref(location.pathname)} replace />;
  const account = session.data ?? initial;
  return (
    <div className="container workbench">
      <PageHeader title={t('security.title')} subtitle={t('security.subtitle')}>
        <p>
          <Link to="/workbench">{t('security.back')}</Link>
        </p>
        {next && (
          <p>
            <Link to={next}>{t('security.continue')}</Link>
          </p>
        )}
      </PageHeader>
      <SignInChanges />
      <AccountSecurity account={account} />
      <RecentActivity />
    </div>
  );
}
