import type { AuthConfig, AuthRoutesOptions } from './auth-options';

/**
 * The screens' paths from the options, which are checked here, when the app builds its route table:
 * a mistake in the wiring throws at start, with the fix in the message. (The rest of the options is
 * resolved when a screen first loads, so the app's entry carries only this.)
 */
export function authPaths(options: AuthRoutesOptions): AuthConfig['paths'] {
  if (!options?.client || !options.queryClient)
    throw new TypeError(
      'createAuthRoutes needs { client, queryClient }: the account client and the QueryClient given to <AccountProvider>',
    );
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  if (base && !base.startsWith('/'))
    throw new TypeError(`createAuthRoutes: basePath must start with '/' (got "${options.basePath}")`);
  if (options.methods?.length === 0)
    throw new TypeError('createAuthRoutes: methods needs at least one sign-in method');
  return {
    login: `${base}/login`,
    signUp: options.screens?.signUp === false ? null : `${base}/sign-up`,
    resetPassword: options.screens?.resetPassword === false ? null : `${base}/reset-password`,
  };
}
