import { type TranslationKeys, ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';
import type { PasswordSuggestion, PasswordTooWeakData, PasswordWarning } from '../../protocol';

/**
 * The lowest zxcvbn score a new password must reach. 3 is "safely unguessable": about 10^8 guesses or
 * more, beyond an online attack and costly offline against argon2id. 2 still lets `Monkey2024!` through.
 */
export const MIN_PASSWORD_SCORE = 3;

/**
 * Only the first 64 characters are estimated: the estimator's cost grows faster than the length
 * (a 256-character repeat takes over a second of CPU), and 64 characters that score 3 are ample.
 */
const ESTIMATED_LENGTH = 64;

// Built once when the server starts (~200 ms for the dictionaries), never per request. No translations:
// the feedback stays as the estimator's keys, which the pages translate.
const estimator = new ZxcvbnFactory({
  graphs: adjacencyGraphs,
  dictionary: { ...commonDictionary, ...englishDictionary },
  maxLength: ESTIMATED_LENGTH,
});

// The wire's key lists must be the estimator's: an upgrade that adds or renames a key fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const warningsMatch: Same<keyof TranslationKeys['warnings'], PasswordWarning> = true;
const suggestionsMatch: Same<keyof TranslationKeys['suggestions'], PasswordSuggestion> = true;
void warningsMatch;
void suggestionsMatch;

/**
 * Estimates how hard a new password is to guess, with the account's own words (identifiers, app name)
 * counted as known to the attacker. Answers the failure data of PASSWORD_TOO_WEAK when it scores below
 * MIN_PASSWORD_SCORE, else null.
 */
export function weakness(password: string, contextWords: readonly string[]): PasswordTooWeakData | null {
  const result = estimator.check(password, [...contextWords]);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  return {
    password_score: result.score,
    password_min_score: MIN_PASSWORD_SCORE,
    password_feedback: {
      warning: result.feedback.warning as PasswordWarning | null,
      suggestions: result.feedback.suggestions as PasswordSuggestion[],
    },
  };
}
