import { isAccountError } from '@portico/account-sdk';
import {
  ErrorCode,
  type PasswordSuggestion,
  type PasswordTooWeakData,
  type PasswordWarning,
} from '@portico/account-sdk/protocol';
import type { Language } from '../i18n/define';

/**
 * The passport's refusals of a new password: shown on the password field itself, not at the form's
 * foot. Each code's text is the account package's; the estimator's feedback keys are translated here.
 */
const PASSWORD_REFUSALS: ReadonlySet<number> = new Set([
  ErrorCode.passwordTooShort,
  ErrorCode.passwordTooLong,
  ErrorCode.passwordTooCommon,
  ErrorCode.passwordContainsContext,
  ErrorCode.passwordTooWeak,
]);

/** True when a call's failure is the passport refusing the new password. */
export const isPasswordRefusal = (error: unknown): boolean =>
  isAccountError(error, 'response') && PASSWORD_REFUSALS.has(error.error_code);

/** The estimator's warning (what makes it guessable) and suggestions of a PASSWORD_TOO_WEAK failure. */
export interface PasswordFeedback {
  warning: PasswordWarning | null;
  suggestions: PasswordSuggestion[];
}

/** The feedback a PASSWORD_TOO_WEAK failure carries; keys the catalogue does not know are left out. */
export function passwordFeedbackOf(error: unknown): PasswordFeedback | null {
  if (!isAccountError(error, 'response') || error.error_code !== ErrorCode.passwordTooWeak) return null;
  const sent = (error.data as Partial<PasswordTooWeakData>).password_feedback;
  const warning = sent?.warning;
  return {
    warning: typeof warning === 'string' && Object.hasOwn(WARNINGS, warning) ? warning : null,
    suggestions: Array.isArray(sent?.suggestions)
      ? sent.suggestions.filter((key) => typeof key === 'string' && Object.hasOwn(SUGGESTIONS, key))
      : [],
  };
}

/** [zh, en] per warning key (zxcvbn-ts); the type makes a missing key a compile error. */
const WARNINGS: Record<PasswordWarning, readonly [string, string]> = {
  straightRow: ['键盘上的一整排按键很容易被猜到。', 'Straight rows of keys are easy to guess.'],
  keyPattern: ['简短的键盘图案很容易被猜到。', 'Short keyboard patterns are easy to guess.'],
  simpleRepeat: [
    '像 “aaa” 这样的重复字符很容易被猜到。',
    'Repeated characters like “aaa” are easy to guess.',
  ],
  extendedRepeat: [
    '像 “abcabcabc” 这样的重复片段很容易被猜到。',
    'Repeated patterns like “abcabcabc” are easy to guess.',
  ],
  sequences: ['像 “abc” 这样的常见序列很容易被猜到。', 'Common sequences like “abc” are easy to guess.'],
  recentYears: ['最近的年份很容易被猜到。', 'Recent years are easy to guess.'],
  dates: ['日期很容易被猜到。', 'Dates are easy to guess.'],
  topTen: ['这是最常用的密码之一。', 'This is one of the most used passwords.'],
  topHundred: ['这是非常常用的密码。', 'This is a very frequently used password.'],
  common: ['这是常用密码。', 'This is a commonly used password.'],
  similarToCommon: ['这个密码和常用密码很相似。', 'This is similar to a commonly used password.'],
  wordByItself: ['单个单词很容易被猜到。', 'Single words are easy to guess.'],
  namesByThemselves: ['单独的名字或姓氏很容易被猜到。', 'Single names or surnames are easy to guess.'],
  commonNames: ['常见的名字和姓氏很容易被猜到。', 'Common names and surnames are easy to guess.'],
  userInputs: [
    '密码里不应包含你的个人信息或网站信息。',
    'Leave out your personal details and the site’s name.',
  ],
  pwned: ['这个密码已在网上的数据泄露中出现过。', 'This password has appeared in a data breach.'],
};

/** [zh, en] per suggestion key (zxcvbn-ts). */
const SUGGESTIONS: Record<PasswordSuggestion, readonly [string, string]> = {
  l33t: ['避免可预测的字母替换，比如用 “@” 代替 “a”。', 'Avoid predictable substitutions like “@” for “a”.'],
  reverseWords: ['避免把常见单词倒着拼写。', 'Avoid common words spelled backwards.'],
  allUppercase: ['只把部分字母大写，不要全部大写。', 'Capitalise some letters, not all of them.'],
  capitalization: ['不要只把首字母大写。', 'Capitalise more than the first letter.'],
  dates: ['避免使用和你有关的日期和年份。', 'Avoid dates and years that are linked to you.'],
  recentYears: ['避免使用最近的年份。', 'Avoid recent years.'],
  associatedYears: ['避免使用和你有关的年份。', 'Avoid years that are linked to you.'],
  sequences: ['避免常见的字符序列。', 'Avoid common character sequences.'],
  repeated: ['避免重复的单词和字符。', 'Avoid repeated words and characters.'],
  longerKeyboardPattern: [
    '使用更长的键盘图案，并多次改变方向。',
    'Use longer keyboard patterns and change direction several times.',
  ],
  anotherWord: ['再加几个不常见的词。', 'Add more words that are less common.'],
  useWords: ['用几个词组成一句话，但避免常见短语。', 'Use several words, but avoid common phrases.'],
  noNeed: [
    '不需要符号、数字或大写字母，也能设出安全的密码。',
    'A strong password needs no symbols, digits or capitals.',
  ],
  pwned: ['如果你在别处也用这个密码，请尽快修改。', 'If you use this password elsewhere, change it.'],
};

/** The feedback as sentences in a language: the warning first, then each suggestion. */
export function feedbackTexts(feedback: PasswordFeedback, language: Language): string[] {
  const column = language === 'zh' ? 0 : 1;
  return [
    ...(feedback.warning ? [WARNINGS[feedback.warning][column]] : []),
    ...feedback.suggestions.map((key) => SUGGESTIONS[key][column]),
  ];
}
