import { Outlet } from 'react-router';
import { PageShell } from '../components/page-shell';

/** The main layout of the spec: header navigation (home, community, extension, workbench) and footer. */
export function Component() {
  return (
    <PageShell>
      <Outlet />
    </PageShell>
  );
}
