import type { ComponentType } from 'react';
import type { LoaderFunction } from 'react-router';
import { AuthConfigContext } from './auth-config';
import type { AuthConfig } from './auth-options';
import { signedInRedirect } from './navigation';

/**
 * The route props of one screen for `lazy`: the screen inside the resolved options' context, and for
 * the screens a signed-in person has no use for (login, sign-up), the loader that sends them on.
 */
export function screenRoute(
  config: AuthConfig,
  Screen: ComponentType,
  { signedOutOnly = false }: { signedOutOnly?: boolean } = {},
): { Component: ComponentType; loader?: LoaderFunction } {
  const Component = () => (
    <AuthConfigContext.Provider value={config}>
      <Screen />
    </AuthConfigContext.Provider>
  );
  return signedOutOnly ? { Component, loader: signedInRedirect(config) } : { Component };
}
