import { type Language, setLanguage, useLanguage } from '../i18n/language';
import { useT } from '../i18n/messages';

const CHOICES: readonly { language: Language; label: string; lang: string }[] = [
  { language: 'zh', label: '中文', lang: 'zh-CN' },
  { language: 'en', label: 'English', lang: 'en' },
];

/** Two toggle buttons, each named in its own language; the choice is remembered in localStorage. */
export function LanguageSwitch() {
  const language = useLanguage();
  const t = useT();
  return (
    <fieldset className="language-switch">
      <legend className="visually-hidden">{t('language.label')}</legend>
      {CHOICES.map((choice) => (
        <button
          key={choice.language}
          type="button"
          lang={choice.lang}
          aria-pressed={language === choice.language}
          onClick={() => setLanguage(choice.language)}
        >
          {choice.label}
        </button>
      ))}
    </fieldset>
  );
}
