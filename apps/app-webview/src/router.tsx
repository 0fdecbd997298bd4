import { createAuthRoutes } from '@portico/account-pages';
import { createBrowserRouter, data, type RouteObject } from 'react-router';
import { authCopy } from './copy';
import { Layout, LayoutError } from './layout';
import { accountClient, languageStore, queryClient } from './lib/account';
import { afterSignIn, BASENAME } from './policy';

/** The shared sign-in screens in the phone layout (the wap login), carrying `next` and `service`. */
const authRoutes = createAuthRoutes({
  client: accountClient,
  queryClient,
  languageStore,
  methods: ['sms', 'password'],
  keepParams: ['next', 'service'],
  copy: authCopy,
  afterSignIn,
  // Inside an app there is no home to go back to: the app closes the webview.
  home: false,
});

/**
 * The app flavour's route table (served by the passport at /app/): the start page, the QR
 * confirmation a scan opens, the wap login's sign-in and its login-success page. The build writes
 * these paths to dist/routes.json (@portico/app-routes).
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: Layout,
    ErrorBoundary: LayoutError,
    children: [
      { index: true, lazy: () => import('./pages/home') },
      { path: 'qr', lazy: () => import('./pages/qr') },
      { path: 'login-success', lazy: () => import('./pages/login-success') },
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

export const createRouter = () => createBrowserRouter(routes, { basename: BASENAME });
