import type { RouteObject } from 'react-router';
import { PROVIDER_NAMES } from '../third-party/providers';
import type { AuthRoutesOptions } from './auth-options';
import { authPaths } from './auth-paths';

/**
 * The auth screens as route objects for the app's router: `login` (its layout, and the sign-in panel
 * as its index), `sign-up` and `reset-password`, each a lazily loaded chunk of its own, so a visit to
 * login loads the login code only. Mount them among the app's routes:
 *
 *   createBrowserRouter([{ path: '/', Component: Root, children: [...appRoutes, ...createAuthRoutes({ client, queryClient })] }])
 *
 * The app decides the copy (`copy`), where a sign-in goes (`afterSignIn`), the methods, and the frame
 * (`brand`, `languageStore`, `legal`, `home`).
 */
/** Where the passport sends a provider's callback (at the router's root), and GitHub's relay. */
const THIRD_PARTY_PAGES = [
  ...Object.keys(PROVIDER_NAMES).map((provider) => `${provider}-oauth-callback`),
  'github-oauth-twice-redirect',
];

/** The third-party buttons of the sign-in and consent pages, loaded after the page (not in its first load). */
const thirdPartyButtons = () => import('../third-party/buttons');

/** "Sign in with your work e-mail" of the sign-in page, loaded after the page (docs/enterprise-sso.md). */
const workEmailSignIn = () => import('../enterprise/work-email');

/** The passkey button and autofill of the sign-in page, loaded after the page (docs/factors.md). */
const passkeySignIn = () => import('../passkeys/passkey-sign-in');

export function createAuthRoutes(options: AuthRoutesOptions): RouteObject[] {
  const paths = authPaths(options);
  const routes: RouteObject[] = [
    {
      id: 'auth-login',
      path: paths.login,
      lazy: async () => (await import('../screens/login-layout')).route(options),
      children: [
        {
          index: true,
          lazy: async () =>
            (await import('../screens/login')).route(
              options,
              options.thirdParty ? thirdPartyButtons : undefined,
              options.passkeys ? passkeySignIn : undefined,
              options.enterpriseSso ? workEmailSignIn : undefined,
            ),
        },
      ],
    },
  ];
  if (paths.resetPassword)
    routes.push({
      id: 'auth-reset-password',
      path: paths.resetPassword,
      lazy: async () => (await import('../screens/reset-password')).route(options),
    });
  if (paths.signUp)
    routes.push({
      id: 'auth-sign-up',
      path: paths.signUp,
      lazy: async () => (await import('../screens/sign-up')).route(options),
    });
  if (options.screens?.joinWaitlist)
    routes.push({
      id: 'auth-join-waitlist',
      path: `${(options.basePath ?? '').replace(/\/+$/, '')}/join-waitlist`,
      lazy: async () => (await import('../screens/join-waitlist')).route(options),
    });
  // Open authorization's consent page (the provider's interaction URL): its own lazy chunk.
  if (options.authorization)
    routes.push({
      id: 'auth-authorization',
      path: '/authorization',
      lazy: async () =>
        (await import('../screens/authorization')).route(
          options,
          options.thirdParty ? thirdPartyButtons : undefined,
        ),
    });
  // Where an organisation's identity provider sends the browser back (at the router's root).
  if (options.enterpriseSso)
    routes.push({
      path: '/enterprise-sso-callback',
      lazy: async () => (await import('../enterprise/callback')).route(options),
    });
  if (options.thirdParty)
    for (const page of THIRD_PARTY_PAGES)
      routes.push({
        path: `/${page}`,
        lazy: async () => (await import('../third-party/pages')).route(options, page),
      });
  return routes;
}
