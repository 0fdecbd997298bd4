import { PageShell } from '../components/page-shell';
import { NotFoundContent } from './not-found-content';

/** Any path outside the route table. */
export function Component() {
  return (
    <PageShell>
      <NotFoundContent />
    </PageShell>
  );
}
