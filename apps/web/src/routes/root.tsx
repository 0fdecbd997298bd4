import { isRouteErrorResponse, Outlet, ScrollRestoration, useRouteError } from 'react-router';
import { NavProgress } from '../components/nav-progress';
import { PageShell } from '../components/page-shell';
import { Loading } from '../components/spinner';
import { type Language, languageStore } from '../i18n/language';
import { useT } from '../i18n/messages';
import { loadSession } from '../lib/account';
import { NotFoundContent } from './not-found-content';

export interface RootData {
  language: Language;
}

/**
 * Reads the remembered language and starts fetching the session, so the header and any page that
 * needs it find it in the cache. It does not wait: a slow passport must not hold the first paint of
 * public pages. Pages that depend on the session (login, workbench) await it in their own loaders.
 */
export function rootLoader(): RootData {
  loadSession().catch(() => {
    // The header shows no account; pages that need the session surface the failure themselves.
  });
  return { language: languageStore.get() };
}

export function RootLayout() {
  const t = useT();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('skip.main')}
      </a>
      <NavProgress />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

/** Shown while the first page's code and data load. */
export function RootFallback() {
  const t = useT();
  return <Loading label={t('loading.app')} />;
}

/** The root error page: a 404 (an unknown legal document, say) reads as one; anything else offers a reload. */
export function RootError() {
  const error = useRouteError();
  const t = useT();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <PageShell>
        <NotFoundContent />
      </PageShell>
    );
  }
  return (
    <PageShell>
      <section className="container narrow message-page">
        <h1>{t('error.title')}</h1>
        <p>{t('error.body')}</p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          {t('error.retry')}
        </button>
      </section>
    </PageShell>
  );
}
