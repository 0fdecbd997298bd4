import { createAuthRoutes } from '@portico/account-pages';
import { createBrowserRouter, data, type RouteObject, redirect } from 'react-router';
import { authCopy } from './copy';
import { Layout, LayoutError } from './layout';
import { accountClient, languageStore, queryClient } from './lib/account';
import { afterSignIn, routerBasename } from './policy';

/** The shared sign-in, sign-up and reset screens, in the sso flavour, carrying `service` along. */
const authRoutes = createAuthRoutes({
  client: accountClient,
  queryClient,
  languageStore,
  keepParams: ['service'],
  copy: authCopy,
  afterSignIn,
  // The way back is the service's, not this app's.
  home: false,
});

/**
 * The sso app's route table: its sign-in (the passport serves it at /sso/login, which hands out the
 * ticket once signed in), sign-up and reset, and / as the sign-in. The build writes these paths to
 * dist/routes.json (@portico/app-routes), and the passport answers exactly them with index.html.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: Layout,
    ErrorBoundary: LayoutError,
    children: [
      { index: true, loader: ({ request }) => redirect(`/login${new URL(request.url).search}`) },
      ...authRoutes,
      {
        path: '*',
        loader: () => {
          throw data(null, { status: 404 });
        },
      },
    ],
  },
];

export const createRouter = () =>
  createBrowserRouter(routes, { basename: routerBasename(window.location.pathname) });
