import { useSyncExternalStore } from 'react';

export type Language = 'zh' | 'en';

/** Where the chosen language is remembered between visits. */
export const LANGUAGE_STORAGE_KEY = 'portico.language';

const listeners = new Set<() => void>();

function stored(): Language {
  try {
    return globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY) === 'en' ? 'en' : 'zh';
  } catch {
    // Storage can be blocked (privacy settings): zh, the default, without remembering.
    return 'zh';
  }
}

let current: Language = stored();

function applyToDocument(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}
applyToDocument(current);

/** The UI language: zh unless the person chose English before (remembered in localStorage). */
export const getLanguage = (): Language => current;

export function setLanguage(language: Language): void {
  if (language === current) return;
  current = language;
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not remembered, but still switched for this visit.
  }
  applyToDocument(language);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const useLanguage = (): Language => useSyncExternalStore(subscribe, getLanguage, getLanguage);
