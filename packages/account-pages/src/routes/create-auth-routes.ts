import type { RouteObject } from 'react-router';
import { resolveAuthConfig } from './auth-config';
import type { AuthRoutesOptions } from './auth-options';

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
export function createAuthRoutes(options: AuthRoutesOptions): RouteObject[] {
  const config = resolveAuthConfig(options);
  const { paths } = config;
  const routes: RouteObject[] = [
    {
      id: 'auth-login',
      path: paths.login,
      lazy: async () => (await import('../screens/login-layout')).route(config),
      children: [{ index: true, lazy: async () => (await import('../screens/login')).route(config) }],
    },
  ];
  if (paths.resetPassword)
    routes.push({
      id: 'auth-reset-password',
      path: paths.resetPassword,
      lazy: async () => (await import('../screens/reset-password')).route(config),
    });
  if (paths.signUp)
    routes.push({
      id: 'auth-sign-up',
      path: paths.signUp,
      lazy: async () => (await import('../screens/sign-up')).route(config),
    });
  return routes;
}
