import { type AccountInfo, sessionQueryOptions } from '@portico/account-react';
import {
  type LoaderFunctionArgs,
  type NavigateFunction,
  redirect,
  redirectDocument,
  useNavigate,
  useSearchParams,
} from 'react-router';
import { useAuthConfig } from './auth-config';
import type { AuthConfig, AuthDestination } from './auth-options';

/** Loader side: a Response that sends the browser to a destination. */
function redirectTo(destination: AuthDestination, page: string): Response {
  if (typeof destination === 'string') return redirect(destination);
  // Absolute, so the router neither prefixes its basename nor reads it as one of its own routes.
  return redirectDocument(new URL(destination.document, page).href);
}

/**
 * A loader for screens a signed-in person has no use for (login, sign-up): when the session query
 * (the same cache entry as `useSession`) finds an account, go where a sign-in would.
 */
export function signedInRedirect(config: AuthConfig) {
  return async ({ request }: LoaderFunctionArgs) => {
    const account = await config.queryClient.fetchQuery(sessionQueryOptions(config.client));
    if (account)
      throw redirectTo(
        config.afterSignIn({ account, search: new URL(request.url).searchParams }),
        request.url,
      );
    return null;
  };
}

/**
 * After a sign-in resolved: the language the person saved, which the server handed to this browser
 * when it had no choice of its own, is taken up (not over an app's `ui_locales`); then on by the policy.
 */
export function goOnAfterSignIn(
  config: AuthConfig,
  navigate: NavigateFunction,
  account: AccountInfo,
  search: URLSearchParams,
): void {
  const store = config.languageStore;
  const saved = store?.remembered();
  const asked = new URLSearchParams(globalThis.location?.search ?? '').has('ui_locales');
  if (store && saved && saved !== store.get() && !asked) store.set(saved);
  const destination = config.afterSignIn({ account, search });
  if (typeof destination === 'string') navigate(destination, { replace: true });
  else window.location.replace(destination.document);
}

/** Component side: after a sign-in resolved (the session is in the cache by then), go on by the policy. */
export function useGoOn(): (account: AccountInfo) => void {
  const config = useAuthConfig();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  return (account) => goOnAfterSignIn(config, navigate, account, search);
}

/** A link to another auth screen carrying the query parameters the app keeps (`next`, `service`). */
export function useAuthHref(): (path: string) => string {
  const { keepParams } = useAuthConfig();
  const [search] = useSearchParams();
  return (path) => {
    const query = keepParams
      .filter((name) => search.get(name) !== null)
      .map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(search.get(name) ?? '')}`)
      .join('&');
    return query ? `${path}?${query}` : path;
  };
}
