import { createLanguageStore, lazyCaptcha, PAGE_REQUEST_TIMEOUT_MS } from '@portico/account-pages';
import { createAccountQueryClient } from '@portico/account-react';
import { createAccountClient } from '@portico/account-sdk';

/** The app id these pages sign in as (the passport's default app). */
export const AID = 1128;

/**
 * The pages' language: an app's `ui_locales`, else the person's choice (a cookie every app on this
 * host shares), else the browser's languages.
 */
export const languageStore = createLanguageStore();

/** The app flavour of the account client: `account_sdk_source=app`, on the page's own origin. */
export const accountClient = createAccountClient({
  aid: AID,
  source: 'app',
  language: languageStore.get(),
  timeout: PAGE_REQUEST_TIMEOUT_MS,
});
export const queryClient = createAccountQueryClient();

/** The challenge the passport may ask for at sign-in, loaded on its first need. */
export const captcha = lazyCaptcha({ aid: AID, languageStore });
