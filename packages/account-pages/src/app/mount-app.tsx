import { AccountProvider } from '@portico/account-react';
import type { AccountClient, ChallengeCaptcha } from '@portico/account-sdk';
import type { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { languagePlugin } from '../i18n/language-plugin';
import { type LanguageStore, useLanguageStore } from '../i18n/language-store';
import { followPageTitle } from './page-title';

export interface MountAppOptions {
  client: AccountClient;
  /** The QueryClient the app's loaders and the account hooks share. */
  queryClient: QueryClient;
  /** The app's language store: its language is the provider's, and a switch re-renders the app. */
  languageStore: LanguageStore;
  router: ReturnType<typeof createBrowserRouter>;
  /** Answers the passport's challenges (`lazyCaptcha`); none: a challenge fails the call. */
  captcha?: ChallengeCaptcha;
  /** Where the app renders. Default: the page's `#root`. */
  container?: Element | null;
  /** The name after each page's heading in the title (`登录 · Portico`). Default 'Portico'. */
  appName?: string;
}

/**
 * Renders an app's router inside `<AccountProvider>` in the page's `#root`: what every app's entry
 * does, so an app's main.tsx is only its choices (client, router, styles).
 */
export function mountApp(options: MountAppOptions): void {
  const { client, queryClient, languageStore, router, captcha } = options;
  const container = options.container === undefined ? document.getElementById('root') : options.container;
  if (!container)
    throw new Error('mountApp: the page has no #root element (index.html must have <div id="root">)');
  // The passport answers in the page's language, also after a switch.
  client.use(languagePlugin(languageStore));
  // Every route's title is its heading, in the chosen language (not "Portico" on every page).
  followPageTitle(container, options.appName ?? 'Portico');
  function App() {
    const language = useLanguageStore(languageStore);
    return (
      <AccountProvider client={client} queryClient={queryClient} captcha={captcha} language={language}>
        <RouterProvider router={router} />
      </AccountProvider>
    );
  }
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
