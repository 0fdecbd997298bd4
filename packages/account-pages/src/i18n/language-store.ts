import { LANGUAGE_COOKIE } from '@portico/account-sdk/protocol';
import { useSyncExternalStore } from 'react';
import type { Language } from './define';

export interface LanguageStoreOptions {
  /** The name the choice is remembered under. Default `LANGUAGE_COOKIE` ('portico.language'), shared by every app. */
  storageKey?: string;
  /**
   * Where the choice is remembered between visits. Default: a cookie of the page's host (path `/`,
   * a year), so the apps served by one passport (web at `/`, sso at `/sso/`, the phone's pages at
   * `/app/`) share one choice; with `cookieDomain`, the hosts under that domain share it too.
   */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** The default cookie's Domain (the passport's COOKIE_DOMAIN, when the apps live on several hosts). */
  cookieDomain?: string;
  /** Whose `<html lang>` follows the language, and whose cookie remembers it. Default: `globalThis.document`. */
  document?: Pick<Document, 'documentElement'> | null;
  /** Where `ui_locales` is read (its `search`). Default: `globalThis.location`. */
  location?: Pick<Location, 'search'> | null;
  /** The browser's languages, most preferred first. Default: `navigator.languages`. */
  languages?: readonly string[] | null;
  /** The language when nothing else names zh or en. Default 'zh'. */
  fallback?: Language;
}

export interface LanguageStore {
  /**
   * The UI language: the page's `ui_locales` (what an app asked for, this visit only), else the
   * person's remembered choice, else the browser's first of zh and en, else the fallback.
   */
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

/** zh or en for a language tag (`en-GB` → en, `zh-Hant-TW` → zh), else undefined. */
export function languageOfTag(tag: string): Language | undefined {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  return primary === 'zh' || primary === 'en' ? primary : undefined;
}

/** The first of `tags` that names zh or en. */
const firstKnown = (tags: readonly string[]): Language | undefined => {
  for (const tag of tags) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return undefined;
};

/** A year, in seconds: how long the cookie remembers the choice. */
const COOKIE_MAX_AGE = 365 * 24 * 3600;

/** A `Storage`-like view of the document's cookies (path `/`, SameSite=Lax). */
function cookieStorage(
  doc: { cookie: string } | null | undefined,
  domain: string | undefined,
): Pick<Storage, 'getItem' | 'setItem'> | null {
  if (!doc) return null;
  const secure = globalThis.location?.protocol === 'https:' ? '; Secure' : '';
  return {
    getItem(key) {
      const name = encodeURIComponent(key);
      for (const part of doc.cookie.split(';')) {
        const at = part.indexOf('=');
        if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
      }
      return null;
    },
    setItem(key, value) {
      doc.cookie =
        `${encodeURIComponent(key)}=${encodeURIComponent(value)}; Path=/; Max-Age=${COOKIE_MAX_AGE}; SameSite=Lax` +
        (domain ? `; Domain=${domain}` : '') +
        secure;
    },
  };
}

/**
 * The app's UI language as a store (`subscribe` / `get`). Nothing is read at import: the first `get()`
 * (when the app starts) reads, in order, the page's `ui_locales` (an app's wish for this visit), the
 * person's remembered choice, and the browser's languages, so a module can be imported in tests or on
 * a server without touching the page.
 */
export function createLanguageStore(options: LanguageStoreOptions = {}): LanguageStore {
  const key = options.storageKey ?? LANGUAGE_COOKIE;
  const fallback = options.fallback ?? 'zh';
  const listeners = new Set<() => void>();
  let current: Language | undefined;
  const doc = () => (options.document === undefined ? globalThis.document : options.document);
  const storage = () =>
    options.storage === undefined
      ? cookieStorage(doc() as unknown as { cookie: string } | null, options.cookieDomain)
      : options.storage;
  const apply = (language: Language) => {
    const page = doc();
    if (page) page.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  };
  function remembered(): Language | undefined {
    try {
      const stored = storage()?.getItem(key) ?? null;
      return stored === 'en' || stored === 'zh' ? stored : undefined;
    } catch {
      // Storage can be blocked (privacy settings): nothing remembered.
      return undefined;
    }
  }
  function asked(): Language | undefined {
    const search = (options.location === undefined ? globalThis.location : options.location)?.search;
    const uiLocales = search ? new URLSearchParams(search).get('ui_locales') : null;
    return uiLocales ? firstKnown(uiLocales.split(/\s+/)) : undefined;
  }
  function browser(): Language | undefined {
    if (options.languages !== undefined) return firstKnown(options.languages ?? []);
    const nav = globalThis.navigator;
    return firstKnown(nav?.languages?.length ? nav.languages : [nav?.language ?? '']);
  }
  function get(): Language {
    if (current === undefined) {
      current = asked() ?? remembered() ?? browser() ?? fallback;
      apply(current);
    }
    return current;
  }
  return {
    get,
    remembered,
    set(language, options = {}) {
      const changed = language !== get();
      // A choice the person makes is remembered even when the page already spoke it (the browser's
      // language, or an app's wish): the next visit and the other apps follow the person, not those.
      if (options.remember !== false && language !== remembered())
        try {
          storage()?.setItem(key, language);
        } catch {
          // Not remembered, but still switched for this visit.
        }
      if (!changed) return;
      current = language;
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
