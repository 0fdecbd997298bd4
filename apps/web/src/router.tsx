import { createAuthRoutes } from '@portico/account-pages';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { authCopy } from './auth-copy';
import { Brand } from './components/brand';
import { languageStore } from './i18n/language';
import { accountClient, queryClient } from './lib/account';
import { RootError, RootFallback, RootLayout, rootLoader } from './routes/root';

/**
 * The shared sign-in, sign-up and reset screens (@portico/account-pages) with the web app's copy and
 * policy: after a sign-in, back to a safe `next`, else the workbench.
 */
const authRoutes = createAuthRoutes({
  client: accountClient,
  queryClient,
  defaultNext: '/workbench',
  copy: authCopy,
  legal: { terms: '/terms-of-service', privacy: '/privacy-policy' },
  brand: <Brand />,
  languageStore,
  // GitHub and Google: buttons for the providers the passport configured, and the callback pages.
  thirdParty: true,
  passkeys: true,
  // "Sign in with your work e-mail" and /enterprise-sso-callback (docs/enterprise-sso.md).
  enterpriseSso: true,
  // The waitlist page (issue 18): shown while the passport runs with WAITLIST=on.
  screens: { joinWaitlist: true },
  // Open authorization's consent page at /authorization (issue 16).
  authorization: true,
});

/**
 * The spec's route table (§2), minus the pages that arrive with later issues (
 * join-waitlist). The OAuth callbacks and the consent page (/authorization) are `authRoutes` too. Every page is its own lazily loaded module, so a visit to /login
 * loads the root and the login code only. login, reset-password and sign-up are `authRoutes`. The
 * build writes these paths to dist/routes.json (@portico/app-routes), and the passport server answers
 * exactly them with index.html.
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
          { path: 'account/security', lazy: () => import('./routes/account-security') },
          { path: 'account/linked', lazy: () => import('./routes/account-linked') },
          // #12 the organisation console
          { path: 'org', lazy: () => import('./routes/org') },
          // The account centre (issue 17): each page its own route.
          { path: 'account/profile', lazy: () => import('./routes/account/profile') },
          { path: 'account/cancel', lazy: () => import('./routes/account/cancel') },
          // #13 the invitation page
          { path: 'invite', lazy: () => import('./routes/invite') },
          // Open authorization (issue 16): the apps the person authorised, with Revoke.
          { path: 'account/apps', lazy: () => import('./routes/account-apps') },
          // The operator's monitoring dashboard and waitlist
          { path: 'workbench/monitoring', lazy: () => import('./routes/monitoring/page') },
          // The operators' admin console: users, waitlist, organisations, API keys, webhooks, audit log.
          { path: 'admin', lazy: () => import('./routes/admin/page') },
          // Open authorization's developer console: register apps, their secrets, who authorised them.
          { path: 'developer', lazy: () => import('./routes/developer/page') },
        ],
      },
      { path: 'legal/open-source-notice', lazy: () => import('./routes/open-source-notice') },
      { path: 'privacy-policy/:id?', lazy: () => import('./routes/privacy-policy') },
      { path: 'terms-of-service/:id?', lazy: () => import('./routes/terms-of-service') },
      ...authRoutes,
      { path: '*', lazy: () => import('./routes/not-found') },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
