import { loginHref, ProfileScreen, useAccountCentreT } from '@portico/account-pages';
import { useSession } from '@portico/account-react';
import { Link, Navigate, redirect, useLocation } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { loadSession } from '../../lib/account';

/** Signed out: to login, which comes back here. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/account/profile'));
  return session;
}

/** /account/profile: the shared profile screen, and the way to cancellation. */
export function Component() {
  const t = useAccountCentreT();
  const session = useSession();
  const location = useLocation();
  if (session.data === null) return <Navigate to={loginHref(location.pathname)} replace />;
  return (
    <div className="container account-page">
      <PageHeader title={t('profile.title')} subtitle={t('profile.subtitle')} />
      <ProfileScreen>
        <section className="card" aria-labelledby="profile-cancel">
          <h2 id="profile-cancel">{t('profile.cancel')}</h2>
          <Link to="/account/cancel">{t('profile.cancel.link')}</Link>
        </section>
      </ProfileScreen>
    </div>
  );
}
