import { useAccountLanguage } from '@portico/account-react';

/** A date (ms since the epoch) as the reader writes it: `2026年12月10日` or `10 Dec 2026`. */
export function useDate() {
  const language = useAccountLanguage();
  const format = new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium' });
  return (ms: number) => format.format(new Date(ms));
}
