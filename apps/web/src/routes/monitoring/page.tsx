import { loginHref, MonitoringScreen, useMonitoringT } from '@portico/account-pages';
import { redirect } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { loadSession } from '../../lib/account';

/** Signed out: to login, which comes back here. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/workbench/monitoring'));
  return session;
}

/** The operator's monitoring page: the dashboard by day with filters, and the waitlist to admit. */
export function Component() {
  const t = useMonitoringT();
  return (
    <div className="container account-page monitoring">
      <PageHeader title={t('title')} />
      <MonitoringScreen />
    </div>
  );
}
