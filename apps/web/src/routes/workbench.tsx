import {
  AccountSummary,
  loginHref,
  SignInMethods,
  SignOutCard,
  TrustedDevices,
} from '@portico/account-pages';
import { useLogout, useSession } from '@portico/account-react';
import { Link, Navigate, redirect, useLoaderData, useLocation } from 'react-router';
import { PageHeader } from '../components/page-header';
// Not for its texts: with this page importing the app's shared texts, the bundler keeps them and the
// language module in the entry chunk; without it they become two more chunks on /login's first load
// (+0.3 KB brotli, docs/web.md).
import '../i18n/messages';
import { loadSession } from '../lib/account';
import { useWorkbenchT } from './workbench.messages';

/** Signed out: to login, which comes back here once signed in. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/workbench'));
  return session;
}

/** The account centre's other pages, as the workbench links them. */
const MORE = [
  ['/account/apps', 'workbench.more.apps'],
  ['/developer', 'workbench.more.developer'],
  ['/org', 'workbench.more.org'],
  ['/workbench/monitoring', 'workbench.more.monitoring'],
  ['/admin', 'workbench.more.admin'],
] as const;

/** The signed-in account centre: who you are, how you sign in, trusted devices, sign out. */
export function Component() {
  const t = useWorkbenchT();
  const initial = useLoaderData<typeof loader>();
  const session = useSession();
  const location = useLocation();
  const logout = useLogout();
  // Signed out here: to login. The session can also end while the page is open (signed out in another
  // tab, noticed on focus): to login, coming back here afterwards.
  if (session.data === null || logout.isSuccess)
    return <Navigate to={logout.isIdle ? loginHref(location.pathname) : '/login'} replace />;
  const account = session.data ?? initial;
  return (
    <div className="container workbench">
      <PageHeader title={t('workbench.title')} subtitle={t('workbench.subtitle')} />
      <div className="workbench-grid">
        <AccountSummary account={account}>
          <Link to="/account/profile">{t('workbench.editProfile')}</Link>
        </AccountSummary>
        <SignInMethods
          account={account}
          manage={
            <p>
              <Link to="/account/security">{t('workbench.manageIdentifiers')}</Link>
            </p>
          }
          forgot={<Link to="/reset-password">{t('workbench.password.forgot')}</Link>}
        />
        <TrustedDevices />
        <section className="card" aria-labelledby="workbench-more">
          <h2 id="workbench-more">{t('workbench.more')}</h2>
          <ul className="link-list">
            {MORE.map(([to, key]) => (
              <li key={to}>
                <Link to={to}>{t(key)}</Link>
              </li>
            ))}
          </ul>
        </section>
        <SignOutCard logout={logout} />
      </div>
    </div>
  );
}
