import { hash, parseOptions, verify } from '@node-rs/argon2';
import { PassportError } from '../../errors';
import { LIMITS } from '../../protocol';
import { verifyImported } from './imported';

/** OWASP's argon2id parameters: 19 MiB, 2 passes, 1 lane. Raise them here; hashes upgrade on login. */
export const ARGON2_OPTIONS = {
  algorithm: 2 /* Argon2id */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export interface Passwords {
  hash(password: string): Promise<string>;
  /**
   * Checks a password against a stored hash; with no hash (unknown user, or no password set) it checks
   * against a dummy hash so the answer takes as long and says the same.
   */
  verify(stored: string | null, password: string): Promise<boolean>;
  /** True when a stored hash was made with weaker parameters than today's. */
  needsRehash(stored: string): boolean;
}

/** NFKC, and the 1 KiB cap enforced before hashing. */
export function normalisePassword(password: string): string {
  const normalised = password.normalize('NFKC');
  if (Buffer.byteLength(normalised, 'utf8') > LIMITS.passwordMaxBytes)
    throw new PassportError('invalidParam', { field: 'password' });
  return normalised;
}

/**
 * argon2id hashing; an unknown account costs one verify of a dummy hash, as a wrong password does.
 * `cost` is ARGON2_OPTIONS' memory and passes unless the server's limits lower them (tests only).
 */
export async function createPasswords(
  cost: { memoryCost: number; timeCost: number } = ARGON2_OPTIONS,
): Promise<Passwords> {
  const options = { ...ARGON2_OPTIONS, memoryCost: cost.memoryCost, timeCost: cost.timeCost };
  const dummy = await hash('portico-dummy-password-for-unknown-users', options);
  const passwords: Passwords = {
    hash: (password) => hash(normalisePassword(password), options),
    async verify(stored, password) {
      const normalised = normalisePassword(password);
      if (!stored) {
        await verify(dummy, normalised);
        return false;
      }
      // A hash brought from another provider (./imported.ts) is judged by its own algorithm; a right
      // password then fails needsRehash's test below and is rehashed to argon2id.
      if (!stored.startsWith('$argon2')) return verifyImported(stored, normalised);
      try {
        return await verify(stored, normalised);
      } catch {
        return false;
      }
    },
    needsRehash(stored) {
      if (!stored.startsWith('$argon2')) return true;
      try {
        const o = parseOptions(stored);
        return (
          o.algorithm !== options.algorithm ||
          o.memoryCost < options.memoryCost ||
          o.timeCost < options.timeCost ||
          o.parallelism !== options.parallelism
        );
      } catch {
        return true;
      }
    },
  };
  return passwords;
}
