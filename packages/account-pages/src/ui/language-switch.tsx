import { useAuthT } from '../i18n/auth-messages';
import type { Language } from '../i18n/define';
import { type LanguageStore, useLanguageStore } from '../i18n/language-store';

const CHOICES: readonly { language: Language; label: string; lang: string }[] = [
  { language: 'zh', label: '中文', lang: 'zh-CN' },
  { language: 'en', label: 'English', lang: 'en' },
];

/** Two toggle buttons, each named in its own language; the store remembers the choice. */
export function LanguageSwitch({ store }: { store: LanguageStore }) {
  const language = useLanguageStore(store);
  const t = useAuthT();
  return (
    <fieldset className="language-switch">
      <legend className="visually-hidden">{t('language.label')}</legend>
      {CHOICES.map((choice) => (
        <button
          key={choice.language}
          type="button"
          lang={choice.lang}
          aria-pressed={language === choice.language}
          onClick={() => store.set(choice.language)}
        >
          {choice.label}
        </button>
      ))}
    </fieldset>
  );
}
