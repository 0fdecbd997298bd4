import { createBrowserRouter, type RouteObject } from 'react-router';
import { RootError, RootFallback, RootLayout, rootLoader } from './routes/root';

/**
 * The spec's route table (§2), minus the pages that arrive with later issues (authorization, the
 * OAuth callbacks, join-waitlist). Every page is its own lazily loaded module, so a visit to /login
 * loads the root and the login code only. The build writes these paths to dist/routes.json
 * (@portico/app-routes), and the passport server answers exactly them with index.html.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    loader: rootLoader,
    Component: RootLayout,
    ErrorBoundary: RootError,
    HydrateFallback: RootFallback,
    children: [
      {
        lazy: () => import('./routes/main-layout'),
        children: [
          { index: true, lazy: () => import('./routes/index-page') },
          { path: 'home', lazy: () => import('./routes/home') },
          { path: 'community', lazy: () => import('./routes/community') },
          { path: 'extension', lazy: () => import('./routes/extension') },
          { path: 'workbench', lazy: () => import('./routes/workbench') },
        ],
      },
      { path: 'legal/open-source-notice', lazy: () => import('./routes/open-source-notice') },
      { path: 'privacy-policy/:id?', lazy: () => import('./routes/privacy-policy') },
      { path: 'terms-of-service/:id?', lazy: () => import('./routes/terms-of-service') },
      {
        path: 'login',
        lazy: () => import('./routes/login-layout'),
        children: [{ index: true, lazy: () => import('./routes/login') }],
      },
      { path: 'reset-password', lazy: () => import('./routes/reset-password') },
      { path: 'sign-up', lazy: () => import('./routes/sign-up') },
      { path: '*', lazy: () => import('./routes/not-found') },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
