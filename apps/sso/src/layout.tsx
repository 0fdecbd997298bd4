import { isRouteErrorResponse, Outlet, useRouteError } from 'react-router';
import { useTranslate } from './copy';

/** The app's layout: the shared auth screens bring their own shell; the app adds nothing around them. */
export function Layout() {
  return <Outlet />;
}

/** A path outside the route table, or a failed load, in the auth pages' card: no way onward but back. */
export function LayoutError() {
  const error = useRouteError();
  const t = useTranslate();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="auth-page">
      <main id="main" tabIndex={-1} className="auth-main">
        <div className="auth-card">
          <h1>{t(notFound ? 'notFound.title' : 'error.title')}</h1>
          <p className="auth-subtitle">{t(notFound ? 'notFound.body' : 'error.body')}</p>
        </div>
      </main>
    </div>
  );
}
