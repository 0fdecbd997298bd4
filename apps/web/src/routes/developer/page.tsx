import { DeveloperConsole, loginHref, useDeveloperT } from '@portico/account-pages';
import { redirect } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { loadSession } from '../../lib/account';

/** Signed out: to login, which comes back here. */
export async function loader() {
  const session = await loadSession();
  if (!session) throw redirect(loginHref('/developer'));
  return session;
}

/** The developer console: register an app, see its key and its secret once, rotate, delete. */
export function Component() {
  const t = useDeveloperT();
  return (
    <div className="container account-page developer">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <DeveloperConsole />
    </div>
  );
}
