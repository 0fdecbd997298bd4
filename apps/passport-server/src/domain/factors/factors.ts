import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { PassportError } from '../../errors';
import { type CodeLane, isOwnerLane } from '../codes/codes';
import { hasPasskey, provePasskey } from '../passkeys/factor';
import { hasRecoveryCodes, useRecoveryCode } from './recovery-codes';
import { hasTotp, useTotp } from './totp';

/**
 * The factors beyond a mobile and an e-mail that a second verification (2046) and a step-up (2047)
 * accept (docs/factors.md). Each is a `FactorMethod` in one registry: the authenticator app and the
 * recovery codes register here; another factor (a passkey) registers its own with
 * `registerFactorMethod` and is then listed in the 2046 and 2047 answers of the accounts that have it,
 * and accepted by `sms_login_continue` and `auth/verify` under its name.
 */

/** What a person sends to prove a factor: a code, or the factor's own fields (a passkey's assertion). */
export interface FactorProof {
  code?: string | undefined;
  [field: string]: unknown;
}

export interface FactorMethod {
  /** The name on the wire: 'totp', 'recovery_code', 'passkey'. */
  readonly name: string;
  /** Whether the account can prove itself this way now, read through `db`. */
  has(db: Kysely<Database>, userId: string): Promise<boolean>;
  /**
   * Checks the proof and spends what it spends (a step, a code). Throws a PassportError; CODE_WRONG
   * is a judged wrong guess and keeps its charge on the guess budget, any other failure gives it back.
   */
  verify(app: FastifyInstance, userId: string, proof: FactorProof): Promise<void>;
}

const codeOf = (proof: FactorProof) => (typeof proof.code === 'string' ? proof.code : '');

const registry = new Map<string, FactorMethod>();

/** Adds a factor (by name; registering a name again replaces it). */
export function registerFactorMethod(method: FactorMethod): void {
  registry.set(method.name, method);
}

registerFactorMethod({
  name: 'totp',
  has: hasTotp,
  verify: (app, userId, proof) => useTotp(app.db, app.secret, userId, codeOf(proof), app.runtime.now()),
});
registerFactorMethod({
  name: 'recovery_code',
  has: hasRecoveryCodes,
  verify: (app, userId, proof) =>
    useRecoveryCode(app.db, app.secret, userId, codeOf(proof), app.runtime.now()),
});

registerFactorMethod({
  name: 'passkey',
  has: hasPasskey,
  verify: (app, userId, proof) =>
    provePasskey(app, userId, { credential: proof.credential, client: proof.client }),
});

/** The registered factors the account has, by name, in registration order. */
export async function factorsOf(db: Kysely<Database>, userId: string): Promise<string[]> {
  const methods = [...registry.values()];
  const has = await Promise.all(methods.map((method) => method.has(db, userId)));
  return methods.filter((_, i) => has[i]).map((method) => method.name);
}

/** Whether `name` is a registered factor (not 'sms', 'email' or 'password', which have their own paths). */
export const isRegisteredFactor = (name: string): boolean => registry.has(name);

/**
 * Proves a factor of the account: FACTOR_UNAVAILABLE for a factor it does not have; a passkey's answer
 * (a signature, not a guess) is checked as it is; a code factor's guess is charged to the account's
 * factor budget (`factorBudgetKey`), the same rules as the one-time codes' (`limits.codeMaxAttempts`
 * wrong guesses per `limits.codeGuessWindowMs`, charged before the check, given back unless the guess
 * was judged wrong), shared by every code factor of the account.
 */
export async function proveFactor(
  app: FastifyInstance,
  input: { userId: string; method: string; proof: FactorProof; lane: CodeLane },
): Promise<void> {
  const method = registry.get(input.method);
  if (!method || !(await method.has(app.db, input.userId))) throw new PassportError('factorUnavailable');
  // A passkey's answer is a signature over a challenge this server issued, not a guess: it is never
  // charged to the budget and never refused because strangers with the password spent it.
  if (input.method === 'passkey') return method.verify(app, input.userId, input.proof);
  // A code factor without its code is a malformed request, not a guess.
  if (typeof input.proof.code !== 'string') throw new PassportError('invalidParam', { field: 'code' });
  await chargeFactorGuess(app, input.userId, input.lane);
  try {
    await method.verify(app, input.userId, input.proof);
  } catch (error) {
    if (!(error instanceof PassportError && error.errorName === 'codeWrong'))
      await refundFactorGuess(app, input.userId, input.lane);
    throw error;
  }
  await refundFactorGuess(app, input.userId, input.lane);
}

/**
 * The store key of the account's factor guess budget for a lane. A factor's secret is the account's,
 * not one code sent to one browser: every browser that is not the owner's (a second verification from a
 * device the account does not know) shares ONE budget per account, so guesses spread over many
 * browsers (pre-sessions) get no more than one browser gets. The owner's lane (a session of the
 * account: a step-up, an enrolment's first code) keeps a budget of its own, so strangers holding the
 * password never lock the owner out of proving it is them.
 */
export const factorBudgetKey = (userId: string, lane: CodeLane): string =>
  `code:guesses:${isOwnerLane(lane) ? lane : 'browsers'}:factor:${userId}`;

/** Charges one guess to the account's factor budget for `lane` (before the check). */
export async function chargeFactorGuess(app: FastifyInstance, userId: string, lane: CodeLane): Promise<void> {
  const { limits } = app.runtime;
  const budget = factorBudgetKey(userId, lane);
  if ((await app.store.incr(budget, limits.codeGuessWindowMs)) > limits.codeMaxAttempts) {
    await refundFactorGuess(app, userId, lane);
    throw new PassportError('codeTooManyAttempts');
  }
}

/** Gives a guess back (a right code); best effort. */
export function refundFactorGuess(app: FastifyInstance, userId: string, lane: CodeLane): Promise<void> {
  return app.store
    .decrement(factorBudgetKey(userId, lane))
    .catch((error: unknown) => app.log.warn({ err: error }, 'guess refund failed'));
}
