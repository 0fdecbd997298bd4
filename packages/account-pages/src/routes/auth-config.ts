import { createContext, useContext } from 'react';
import { nextOrFallback } from '../next/after-sign-in';
import type { AuthConfig, AuthRoutesOptions } from './auth-options';

/** Fills in the defaults once; a mistake in the wiring throws here, at start, with the fix in the message. */
export function resolveAuthConfig(options: AuthRoutesOptions): AuthConfig {
  if (!options?.client || !options.queryClient)
    throw new TypeError(
      'createAuthRoutes needs { client, queryClient }: the account client and the QueryClient given to <AccountProvider>',
    );
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  if (base && !base.startsWith('/'))
    throw new TypeError(`createAuthRoutes: basePath must start with '/' (got "${options.basePath}")`);
  const methods = options.methods ?? ['sms', 'email', 'password'];
  if (methods.length === 0)
    throw new TypeError('createAuthRoutes: methods needs at least one sign-in method');
  const paths = {
    login: `${base}/login`,
    signUp: options.screens?.signUp === false ? null : `${base}/sign-up`,
    resetPassword: options.screens?.resetPassword === false ? null : `${base}/reset-password`,
  };
  const signedOutPages = [paths.login, paths.signUp, paths.resetPassword].filter((p): p is string => !!p);
  const defaultNext = options.defaultNext ?? '/';
  return {
    client: options.client,
    queryClient: options.queryClient,
    methods,
    keepParams: options.keepParams ?? ['next'],
    copy: options.copy ?? {},
    legal: options.legal ?? false,
    home: options.home ?? '/',
    brand: options.brand ?? null,
    languageStore: options.languageStore,
    paths,
    afterSignIn:
      options.afterSignIn ??
      (({ search }) => nextOrFallback(search.get('next'), defaultNext, signedOutPages)),
  };
}

export const AuthConfigContext = /* @__PURE__ */ createContext<AuthConfig | null>(null);

/** The resolved options of the `createAuthRoutes` the current screen belongs to. */
export function useAuthConfig(): AuthConfig {
  const config = useContext(AuthConfigContext);
  if (!config) throw new Error('An account-pages screen must be rendered from a route of createAuthRoutes()');
  return config;
}
