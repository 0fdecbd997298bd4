import { useSyncExternalStore } from 'react';
import type { Language } from './define';

export interface LanguageStoreOptions {
  /** Where the choice is remembered between visits. Default 'portico.language'. */
  storageKey?: string;
  /** Default: `globalThis.localStorage`, read on the first `get()`, never at import. */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** Whose `<html lang>` follows the language. Default: `globalThis.document` when there is one. */
  document?: Pick<Document, 'documentElement'> | null;
  /** The language before any choice. Default 'zh'. */
  fallback?: Language;
}

export interface LanguageStore {
  /** The UI language: the remembered choice, else the fallback. */
  get(): Language;
  /**
   * Switches and remembers (when storage allows); listeners are told. `remember: false` switches for
   * this visit only: a page following what an app asked for (the consent page's `ui_locales`) does not
   * become the person's choice.
   */
  set(language: Language, options?: { remember?: boolean }): void;
  /** The choice the person made and the store remembers, or undefined when there is none. */
  remembered(): Language | undefined;
  subscribe(listener: () => void): () => void;
}

/**
 * The app's UI language as a store (`subscribe` / `get`). Nothing is read at import: the remembered
 * choice is read on the first `get()`, when the app starts, so a module can be imported in tests or
 * on a server without touching storage.
 */
export function createLanguageStore(options: LanguageStoreOptions = {}): LanguageStore {
  const key = options.storageKey ?? 'portico.language';
  const fallback = options.fallback ?? 'zh';
  const listeners = new Set<() => void>();
  let current: Language | undefined;
  const storage = () => (options.storage === undefined ? globalThis.localStorage : options.storage);
  const apply = (language: Language) => {
    const doc = options.document === undefined ? globalThis.document : options.document;
    if (doc) doc.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  };
  function get(): Language {
    if (current === undefined) {
      let stored: string | null = null;
      try {
        stored = storage()?.getItem(key) ?? null;
      } catch {
        // Storage can be blocked (privacy settings): the fallback, without remembering.
      }
      current = stored === 'en' || stored === 'zh' ? stored : fallback;
      apply(current);
    }
    return current;
  }
  return {
    get,
    remembered() {
      try {
        const stored = storage()?.getItem(key) ?? null;
        return stored === 'en' || stored === 'zh' ? stored : undefined;
      } catch {
        return undefined;
      }
    },
    set(language, options = {}) {
      if (language === get()) return;
      current = language;
      if (options.remember !== false)
        try {
          storage()?.setItem(key, language);
        } catch {
          // Not remembered, but still switched for this visit.
        }
      apply(language);
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The store's language, re-rendering on a switch. */
export function useLanguageStore(store: LanguageStore): Language {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
