import { type AccountLanguage, useAccountLanguage } from '@portico/account-react';
import { useCallback } from 'react';

export type Language = AccountLanguage;

export type Translate<K extends string> = (key: K, values?: Record<string, string | number>) => string;

/** `{name}` placeholders are replaced by `values`; unknown ones stay as they are. */
export function format(text: string, values?: Record<string, string | number>): string {
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * A typed zh/en dictionary (zh is the source of the keys; en must have every one). Each feature
 * defines its own, so a page's chunk carries only its own texts. `useTranslate` reads the language of
 * the nearest `<AccountProvider>`, the one place an app sets it.
 */
export function defineMessages<const Z extends Record<string, string>>(zh: Z, en: Record<keyof Z, string>) {
  type Key = keyof Z & string;
  const table: Record<Language, Record<Key, string>> = { zh, en };
  const translate = (language: Language, key: Key, values?: Record<string, string | number>) =>
    format(table[language][key], values);
  function useTranslate(): Translate<Key> {
    const language = useAccountLanguage();
    return useCallback<Translate<Key>>((key, values) => translate(language, key, values), [language]);
  }
  return { table, translate, useTranslate };
}
