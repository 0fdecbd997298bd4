import { CancelPendingBanner } from '@portico/account-pages';
import { Outlet } from 'react-router';
import { PageShell } from '../components/page-shell';

/** The main layout of the spec: header navigation (home, community, extension, workbench) and footer. */
export function Component() {
  return (
    <PageShell>
      {/* A cancellation waiting out its cooling-off period: the way back, on every page of the layout. */}
      <CancelPendingBanner />
      <Outlet />
    </PageShell>
  );
}
