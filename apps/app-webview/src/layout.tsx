import { LanguageSwitch } from '@portico/account-pages';
import { useSaveLanguage, useSession } from '@portico/account-react';
import { useEffect, useState } from 'react';
import { isRouteErrorResponse, Outlet, useRouteError } from 'react-router';
import { TOAST_EVENT } from './bridge';
import { useTranslate } from './copy';
import { languageStore } from './lib/account';

/** The page's own toast (the bridge's browser fallback): one polite status line at the bottom. */
function Toast() {
  const [message, setMessage] = useState('');
  useEffect(() => {
    let timer: number | undefined;
    const show = (event: Event) => {
      setMessage((event as CustomEvent<{ message: string }>).detail.message);
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setMessage(''), 4000);
    };
    window.addEventListener(TOAST_EVENT, show);
    return () => {
      window.removeEventListener(TOAST_EVENT, show);
      window.clearTimeout(timer);
    };
  }, []);
  return (
    <div className="app-toast" role="status" aria-live="polite">
      {message}
    </div>
  );
}

/** The phone layout: the page (in the auth card) and the toast. */
export function Layout() {
  return (
    <>
      <Outlet />
      <Toast />
    </>
  );
}

/**
 * The card every own page of the app uses, under the language switch (the one choice every app on this
 * host shares; saved on the account while someone is signed in, so it follows them).
 */
export function Card({ children }: { children: React.ReactNode }) {
  const signedIn = Boolean(useSession().data);
  const saveLanguage = useSaveLanguage();
  return (
    <div className="auth-page">
      <header className="auth-header">
        <LanguageSwitch
          store={languageStore}
          onChoose={signedIn ? (language) => saveLanguage.mutate(language) : undefined}
        />
      </header>
      <main id="main" tabIndex={-1} className="auth-main">
        <div className="auth-card">{children}</div>
      </main>
    </div>
  );
}

export function LayoutError() {
  const error = useRouteError();
  const t = useTranslate();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Card>
      <h1>{t(notFound ? 'notFound.title' : 'error.title')}</h1>
      <p className="auth-subtitle">{t(notFound ? 'notFound.body' : 'error.body')}</p>
    </Card>
  );
}
