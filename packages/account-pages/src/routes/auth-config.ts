import { createContext, useContext } from 'react';
import { nextOrFallback } from '../next/after-sign-in';
import type { AuthConfig, AuthRoutesOptions } from './auth-options';
import { authPaths } from './auth-paths';

const resolved = new WeakMap<AuthRoutesOptions, AuthConfig>();

/** The options with every default filled in, once per options object (every screen shares it). */
export function resolveAuthConfig(options: AuthRoutesOptions): AuthConfig {
  const known = resolved.get(options);
  if (known) return known;
  const paths = authPaths(options);
  const signedOutPages = [paths.login, paths.signUp, paths.resetPassword].filter((p): p is string => !!p);
  const defaultNext = options.defaultNext ?? '/';
  const config: AuthConfig = {
    client: options.client,
    queryClient: options.queryClient,
    methods: options.methods ?? ['sms', 'email', 'password', 'qr'],
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
  resolved.set(options, config);
  return config;
}

export const AuthConfigContext = /* @__PURE__ */ createContext<AuthConfig | null>(null);

/** The resolved options of the `createAuthRoutes` the current screen belongs to. */
export function useAuthConfig(): AuthConfig {
  const config = useContext(AuthConfigContext);
  if (!config) throw new Error('An account-pages screen must be rendered from a route of createAuthRoutes()');
  return config;
}
