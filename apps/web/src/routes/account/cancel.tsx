import { CancelScreen, loginHref, useAccountCentreT } from '@portico/account-pages';
import { Link, Navigate, redirect, useLocation } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { loadSession } from '../../lib/account';

/** Signed out: to login, which comes back here. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/account/cancel'));
  return session;
}

/** /account/cancel: the shared cancellation screen; afterwards, to sign in. */
export function Component() {
  const t = useAccountCentreT();
  const location = useLocation();
  return (
    <CancelScreen
      header={<PageHeader title={t('cancel.title')} subtitle={t('cancel.subtitle')} />}
      signIn={
        <Link to="/login" className="button button-primary">
          {t('cancel.signIn')}
        </Link>
      }
      signedOut={<Navigate to={loginHref(location.pathname)} replace />}
    />
  );
}
