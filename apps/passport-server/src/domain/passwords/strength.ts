import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TranslationKeys } from '@zxcvbn-ts/core';
import { Piscina } from 'piscina';
import { PassportError } from '../../errors';
import type { PasswordSuggestion, PasswordTooWeakData, PasswordWarning } from '../../protocol';
import { FairQueue, type JobOwner, QueueFull } from './fair-queue';
import type { Estimate } from './strength-worker';

/**
 * The lowest zxcvbn score a new password must reach. 3 is "safely unguessable": about 10^8 guesses or
 * more, beyond an online attack and costly offline against argon2id. 2 still lets `Monkey2024!` through.
 */
export const MIN_PASSWORD_SCORE = 3;

/**
 * Only the first 32 characters (code points) are estimated: the estimator's cost grows with the length
 * (a crafted 64-character run costs seconds of CPU, 32 about half), and 32 characters that score 3 are
 * ample. A longer password is judged by its start; nothing after it can make it weak. Each run is also
 * charged to the client address first (src/domain/passwords/new-password.ts `policy`).
 */
export const ESTIMATED_LENGTH = 32;

/**
 * The estimator's queue (./fair-queue.ts): estimates wait per client network and per account, a few
 * places each, and the worker takes one from each network in turn. Past its network's or its account's
 * places a request is refused (RATE_LIMITED); at MAX_WAITING_ESTIMATES in all, the fullest network gives
 * up its newest place to a newcomer. Strangers who hammer it fill their own places: the owner's estimate
 * waits at most one estimate per other waiting network, each bounded in cost (ESTIMATED_LENGTH,
 * L33T_MAX_SUBSTITUTIONS).
 */
export const ESTIMATES_PER_SOURCE = 4;
export const ESTIMATES_PER_ACCOUNT = 2;
export const MAX_WAITING_ESTIMATES = 256;

/**
 * The estimator tries at most this many letter-for-symbol substitutions (`4` for `a`, `0` for `o`…) per
 * password. Its default (512) let a crafted 32-character run of digits and symbols cost 2–7 s of CPU; at
 * 20 the same runs cost well under 0.1 s, and the common substitutions (`P@ssw0rd!`) are still found.
 */
export const L33T_MAX_SUBSTITUTIONS = 20;

/** Where an estimate comes from when the caller names nobody (the tests, a console). */
const LOCAL: JobOwner = { source: 'local' };

/** How often the estimator ran in this process and the longest input it was given (for the tests). */
export const estimatorUse = { calls: 0, longestInput: 0 };

/**
 * One worker thread, started on first use and kept (an idle worker does not keep the process alive):
 * the estimator never runs on the event loop, and it uses one core at most. The worker is the .ts file
 * beside this one when the server runs from its sources, the built .js beside the bundle otherwise.
 */
let pool: Piscina | undefined;
/**
 * The pool's first task, which waits for the worker to start and load its dictionaries. An estimate's
 * bound starts after it: on a loaded machine a start alone outlasted the bound, and the first person to
 * set a password after a restart was answered RATE_LIMITED.
 */
let started: Promise<unknown> | undefined;
const queue = new FairQueue<Estimate>({
  perSource: ESTIMATES_PER_SOURCE,
  perAccount: ESTIMATES_PER_ACCOUNT,
  total: MAX_WAITING_ESTIMATES,
  concurrency: 1,
});

/** Estimates waiting for their turn (for the tests). */
export const waitingEstimates = () => queue.size;

function estimatorPool(): Piscina {
  if (pool) return pool;
  const made = new Piscina({
    filename: new URL(`./strength-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url).href,
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Number.POSITIVE_INFINITY,
    workerData: { maxLength: ESTIMATED_LENGTH, l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS },
  });
  // A worker that fails outside a task (it could not load, say) is reported here, not by a task: an
  // unheard 'error' would end the process. The pool is dropped and the next estimate starts another.
  made.on('error', () => {
    if (pool === made) pool = undefined;
    void made.destroy();
  });
  pool = made;
  started = made.run({ password: '', words: [] });
  return made;
}

/** How long a worker may take to start (load its dictionaries) before an estimate gives up on it. */
const START_TIMEOUT_MS = 120_000;

/** Resolves with `work`, or rejects RATE_LIMITED after `ms` (a hang detector, not a speed bound). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PassportError('rateLimited')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * An estimate the started worker has not answered after this long is given up: RATE_LIMITED. A hang
 * detector, not a speed bound: a crafted input costs up to ~1.3 s of CPU, which a machine loaded many
 * times over its cores stretches to many seconds.
 */
export const ESTIMATE_TIMEOUT_MS = 30_000;

// The wire's key lists must be the estimator's: an upgrade that adds or renames a key fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const warningsMatch: Same<keyof TranslationKeys['warnings'], PasswordWarning> = true;
const suggestionsMatch: Same<keyof TranslationKeys['suggestions'], PasswordSuggestion> = true;
void warningsMatch;
void suggestionsMatch;

/**
 * Estimates how hard a new password is to guess, with the account's own words (identifiers, app name)
 * counted as known to the attacker. Answers the failure data of PASSWORD_TOO_WEAK when it scores below
 * MIN_PASSWORD_SCORE, else null; RATE_LIMITED when `owner`'s network or account has no place left in the
 * queue (or was pushed out of it by a newcomer).
 */
export async function weakness(
  password: string,
  contextWords: readonly string[],
  owner: JobOwner = LOCAL,
): Promise<PasswordTooWeakData | null> {
  const estimated = [...password].slice(0, ESTIMATED_LENGTH).join('');
  const result = await queue
    .run(owner, async () => {
      estimatorUse.calls += 1;
      estimatorUse.longestInput = Math.max(estimatorUse.longestInput, [...estimated].length);
      // Given up after ESTIMATE_TIMEOUT_MS, not cancelled (an estimate is bounded in cost, a fraction
      // of a second): the answer no longer waits, and the next estimate goes to the worker's own queue.
      // The bound starts once the worker has started.
      const worker = estimatorPool();
      await within(started ?? Promise.resolve(), START_TIMEOUT_MS).catch((error: unknown) => {
        // A worker that never started is dropped: the next estimate starts another.
        if (pool === worker) {
          pool = undefined;
          started = undefined;
          void worker.destroy();
        }
        throw error;
      });
      return within(
        worker.run({ password: estimated, words: [...contextWords] }) as Promise<Estimate>,
        ESTIMATE_TIMEOUT_MS,
      );
    })
    .catch((error: unknown) => {
      throw error instanceof QueueFull ? new PassportError('rateLimited') : error;
    });
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  return {
    password_score: result.score,
    password_min_score: MIN_PASSWORD_SCORE,
    password_feedback: {
      warning: result.warning as PasswordWarning | null,
      suggestions: result.suggestions as PasswordSuggestion[],
    },
  };
}
