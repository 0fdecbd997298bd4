import { createLanguageStore, type Language, useLanguageStore } from '@portico/account-pages';

export type { Language };

/** The web app's UI language: zh unless the person chose English before (remembered in localStorage). */
export const languageStore = createLanguageStore({ storageKey: 'portico.language' });

/** The UI language, re-rendering on a switch. */
export const useLanguage = (): Language => useLanguageStore(languageStore);
