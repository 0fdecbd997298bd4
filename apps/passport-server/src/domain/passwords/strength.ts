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
 * Only the first 32 characters (code points) are estimated: the estimator runs synchronously and its
 * cost grows with the length (a 64-digit run costs 0.2–0.6 s of CPU, 32 about half), and 32 characters
 * that score 3 are ample. A longer password is judged by its start; nothing after it can make it weak.
 * Each run is also charged to the client address first (src/domain/passwords/new-password.ts `policy`).
 */
export const ESTIMATED_LENGTH = 32;

/** How often the estimator ran in this process and the longest input it was given (for the tests). */
export const estimatorUse = { calls: 0, longestInput: 0 };

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
  const estimated = [...password].slice(0, ESTIMATED_LENGTH).join('');
  estimatorUse.calls += 1;
  estimatorUse.longestInput = Math.max(estimatorUse.longestInput, [...estimated].length);
  const result = estimator.check(estimated, [...contextWords]);
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
