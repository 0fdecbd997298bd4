import { PassportError } from '../../errors';
import { LIMITS } from '../../protocol';
import { COMMON_PASSWORDS } from './common-passwords';
import type { JobOwner } from './fair-queue';
import { normalisePassword } from './passwords';
import { commonPattern } from './patterns';
import { weakness } from './strength';

const common = new Set(COMMON_PASSWORDS.split('\n'));

/** Context words shorter than this are too weak a signal to refuse a password over. */
const MIN_CONTEXT_LENGTH = 4;

/** The parts of an identifier a person would put in a password: the e-mail's local part, the number's digits. */
function contextWordsOf(identifier: string): string[] {
  const value = identifier.normalize('NFKC').toLowerCase();
  const at = value.indexOf('@');
  if (at > 0) return [value.slice(0, at)];
  if (/^\+?[0-9]+$/.test(value)) return [value.replace(/^\+/, ''), value.slice(-8)];
  return [value];
}

/** A new password that passed the cheap rules, normalised, with the context words for the estimator. */
export interface ScreenedPassword {
  password: string;
  words: string[];
}

/**
 * The cheap rules for a NEW password (register, reset, change, set): NFKC, 1 KiB cap (400 before any
 * hashing), at least 8 characters, no composition rules, not among the most common 10,000 passwords
 * nor following a common pattern (a common word or a keyboard walk dressed with a year or a love
 * number: ./patterns.ts), and not containing the app name or the account's identifiers. Throws PASSWORD_TOO_SHORT /
 * PASSWORD_TOO_COMMON / PASSWORD_CONTAINS_CONTEXT. Existing passwords (sign-in, current_password) are
 * never put through this: a rule that tightens later must not lock anybody out.
 */
export function screenNewPassword(
  password: string,
  context: { appName: string; identifiers: readonly (string | null | undefined)[] },
): ScreenedPassword {
  const normalised = normalisePassword(password);
  if ([...normalised].length < LIMITS.passwordMinLength) throw new PassportError('passwordTooShort');
  const folded = normalised.toLowerCase();
  if (common.has(folded) || commonPattern(normalised)) throw new PassportError('passwordTooCommon');
  const words = [
    context.appName.toLowerCase(),
    ...context.identifiers.flatMap((id) => (id ? contextWordsOf(id) : [])),
  ];
  if (words.some((word) => word.length >= MIN_CONTEXT_LENGTH && folded.includes(word)))
    throw new PassportError('passwordContainsContext');
  return { password: normalised, words };
}

/**
 * The costly rule: hard enough to guess for the strength estimator (zxcvbn-ts, its dictionaries and the
 * same context words; score ≥ MIN_PASSWORD_SCORE), else PASSWORD_TOO_WEAK with the estimator's
 * feedback keys in its data. Answers the normalised password. `owner` is whose turn in the estimator's
 * fair queue it takes (a client network and an account; ./strength.ts).
 */
export async function assertStrong(screened: ScreenedPassword, owner?: JobOwner): Promise<string> {
  const weak = await weakness(screened.password, screened.words, owner);
  if (weak) throw new PassportError('passwordTooWeak', { ...weak });
  return screened.password;
}

/** Both, for callers without a client address to charge (the server's flows use `policy`). */
export function assertNewPassword(
  password: string,
  context: { appName: string; identifiers: readonly (string | null | undefined)[] },
): Promise<string> {
  return assertStrong(screenNewPassword(password, context));
}
