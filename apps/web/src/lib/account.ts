import { lazyCaptcha, PAGE_REQUEST_TIMEOUT_MS } from '@portico/account-pages';
import { createAccountQueryClient, sessionQueryOptions } from '@portico/account-react';
import { createAccountClient } from '@portico/account-sdk';
import { languageStore } from '../i18n/language';

/** The app id the web flavour signs in as (the passport's default app). */
export const AID = 1128;

/**
 * Made once for the page: the account client talks to the passport on the page's own origin (the
 * server that serves this app), and one QueryClient with the spec's fetch defaults is shared by the
 * route loaders and the hooks.
 */
export const accountClient = createAccountClient({
  aid: AID,
  source: 'web',
  language: languageStore.get(),
  timeout: PAGE_REQUEST_TIMEOUT_MS,
});
export const queryClient = createAccountQueryClient();

/**
 * The session as route loaders see it: the same cache entry `useSession()` reads. `fetchQuery` answers
 * from the cache while the entry is fresh (a sign-in puts its answer there) and fetches otherwise.
 */
export const loadSession = () => queryClient.fetchQuery(sessionQueryOptions(accountClient));

/** The challenge, loaded on its first need (the /login budget). */
export const captcha = lazyCaptcha({ aid: AID, languageStore });
