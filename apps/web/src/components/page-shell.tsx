import type { ReactNode } from 'react';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** Header, a main landmark (the skip link's target) and the footer, for pages outside the main layout. */
export function PageShell({ children, nav = true }: { children: ReactNode; nav?: boolean }) {
  return (
    <div className="page">
      <SiteHeader nav={nav} />
      <main id="main" tabIndex={-1} className="page-main">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
