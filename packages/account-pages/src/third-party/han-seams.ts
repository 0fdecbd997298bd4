import { useAccountLanguage } from '@portico/account-react';
import { useCallback } from 'react';
import type { Language, Translate } from '../i18n/define';

/** A Chinese character or full-width punctuation: no space is set between two of them. */
const HAN = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

/**
 * `{name}` placeholders replaced by `values` (unknown ones stay), where a value may be a Chinese word:
 * the space a Chinese text sets around a placeholder to set a Latin name apart (`使用 {provider} 登录`)
 * goes where the value is Chinese at that edge (`使用微信登录`, not `使用 微信 登录`). The third-party
 * texts' own formatting (WeChat is 微信 in Chinese), kept in their chunks, out of every page's first load.
 */
export function formatWithHanSeams(text: string, values?: Record<string, string | number>): string {
  if (!values) return text;
  const parts = text.split(/\{(\w+)\}/);
  let out = parts[0] ?? '';
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] ?? '';
    let after = parts[i + 1] ?? '';
    if (!(name in values)) {
      out += `{${name}}${after}`;
      continue;
    }
    const value = String(values[name]);
    if (HAN.test(value.charAt(0)) && out.endsWith(' ') && HAN.test(out.charAt(out.length - 2)))
      out = out.slice(0, -1);
    if (HAN.test(value.charAt(value.length - 1)) && after.startsWith(' ') && HAN.test(after.charAt(1)))
      after = after.slice(1);
    out += value + after;
  }
  return out;
}

/** `useTranslate` of a `defineMessages` table, formatting with `formatWithHanSeams`. */
export function hanSeamsTranslator<K extends string>(table: Record<Language, Record<K, string>>) {
  return function useTranslate(): Translate<K> {
    const language = useAccountLanguage();
    return useCallback<Translate<K>>(
      (key, values) => formatWithHanSeams(table[language][key], values),
      [language],
    );
  };
}
