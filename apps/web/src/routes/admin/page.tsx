import { AdminConsole, loginHref, useAdminT } from '@portico/account-pages';
import { Link, redirect } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { loadSession } from '../../lib/account';

/** Signed out: to login, which comes back here. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/admin'));
  return session;
}

/** The operators' admin console; the monitoring dashboard is its own page. */
export function Component() {
  const t = useAdminT();
  return (
    <div className="container account-page admin">
      <PageHeader title={t('title')} />
      <AdminConsole monitoringLink={<Link to="/workbench/monitoring">{t('monitoring')}</Link>} />
    </div>
  );
}
