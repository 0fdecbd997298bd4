import type { Language } from '../i18n/define';
import { type LanguageStore, useLanguageStore } from '../i18n/language-store';

const CHOICES: readonly { language: Language; label: string; lang: string }[] = [
  { language: 'zh', label: '中文', lang: 'zh-CN' },
  { language: 'en', label: 'English', lang: 'en' },
];

/** The group's name, in the language shown (its own two words: the switch sits in every app's header). */
const LABEL: Record<Language, string> = { zh: '语言', en: 'Language' };

/**
 * Two toggle buttons, each named in its own language; the store remembers the choice, and `onChoose`
 * (an app passes it while someone is signed in) saves it on the account so it follows them.
 */
export function LanguageSwitch({
  store,
  onChoose,
}: {
  store: LanguageStore;
  onChoose?: (language: Language) => void;
}) {
  const language = useLanguageStore(store);
  return (
    <fieldset className="language-switch">
      <legend className="visually-hidden">{LABEL[language]}</legend>
      {CHOICES.map((choice) => (
        <button
          key={choice.language}
          type="button"
          lang={choice.lang}
          aria-pressed={language === choice.language}
          onClick={() => {
            store.set(choice.language);
            onChoose?.(choice.language);
          }}
        >
          {choice.label}
        </button>
      ))}
    </fieldset>
  );
}
