import { createLanguageStore, type Language, useLanguageStore } from '@portico/account-pages';

export type { Language };

/**
 * The UI language: an app's `ui_locales`, else the person's choice (a cookie every app on this host
 * shares), else the browser's languages.
 */
export const languageStore = createLanguageStore();

/** The UI language, re-rendering on a switch. */
export const useLanguage = (): Language => useLanguageStore(languageStore);
