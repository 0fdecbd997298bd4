import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { PassportError } from '../../errors';
import { factorsOf } from '../factors/factors';

/**
 * "Members must use a second factor" (docs/organisations.md): an organisation may require its members
 * to prove a second factor to act as its identities — to sign in as one, switch to one, make its calls
 * and take its product token. The one rule, read wherever an identity acts.
 *
 * - What counts as having one: a passkey or an authenticator app. Recovery codes are their backup (they
 *   prove the factor was set up, they do not replace it), and an SMS or e-mail code is not one: NIST SP
 *   800-63B-4 prefers phishing-resistant factors, and an SMS code is a code the phone network carries.
 * - What counts as using one: the session proved a factor (a passkey, the app's code or a recovery code)
 *   at its sign-in, a step-up or by enrolling one, within `limits.orgFactorMaxAgeMs`.
 */

/** The factors that satisfy the requirement, as the factor registry names them. */
export const SECOND_FACTORS = ['passkey', 'totp'] as const;

/**
 * What an organisation's second-factor rule judges a caller by: when its session last proved a second
 * factor (ms; null: never), the server's clock and the window (`limits.orgFactorMaxAgeMs`).
 */
export interface FactorClock {
  factorVerifiedAt: number | null | undefined;
  now: number;
  maxAgeMs: number;
}

/** The clock of a session's proof on this server (`factorVerifiedAt` as the session records it). */
export const factorClockOf = (
  app: FastifyInstance,
  factorVerifiedAt: number | null | undefined,
): FactorClock => ({
  factorVerifiedAt,
  now: app.runtime.now(),
  maxAgeMs: app.runtime.limits.orgFactorMaxAgeMs,
});

/**
 * Throws unless the account `userId` may act in `subject` with its session's proof (`clock`; undefined:
 * none): SECOND_FACTOR_REQUIRED (1621) with `enrol` (the factors to set up) for an account with none,
 * STEP_UP_REQUIRED (2047) naming only its factors for one whose session has not proved one recently
 * enough. Reads through `db` (the caller's transaction) only when the organisation requires it.
 */
export async function assertSecondFactor(
  db: Kysely<Database>,
  subject: { id: string; require_second_factor: number | bigint | string },
  userId: string,
  clock: FactorClock | undefined,
): Promise<void> {
  if (Number(subject.require_second_factor) !== 1) return;
  const at = clock?.factorVerifiedAt;
  // A time a little ahead of this server's clock (another instance's) counts as just now.
  if (clock && typeof at === 'number' && clock.now - at <= clock.maxAgeMs) return;
  const factors = await factorsOf(db, userId);
  if (!factors.some((name) => (SECOND_FACTORS as readonly string[]).includes(name)))
    throw new PassportError('secondFactorRequired', {
      sec_subject_uid: subject.id,
      enrol: [...SECOND_FACTORS],
    });
  throw new PassportError('stepUpRequired', {
    mobile: '',
    email: '',
    has_password: false,
    max_age: Math.round((clock?.maxAgeMs ?? 0) / 1000),
    methods: factors,
    sec_subject_uid: subject.id,
  });
}

/** The rule for a session acting as an identity of `subjectId` outside an operation (the product token). */
export async function assertSessionMeetsSecondFactor(
  app: FastifyInstance,
  session: { userId: string; factorVerifiedAt: number | null },
  subjectId: string,
): Promise<void> {
  const subject = await app.db
    .selectFrom('subjects')
    .select(['id', 'require_second_factor'])
    .where('id', '=', subjectId)
    .executeTakeFirst();
  if (subject)
    await assertSecondFactor(app.db, subject, session.userId, factorClockOf(app, session.factorVerifiedAt));
}

/** Whether the account has a second factor (a passkey or an authenticator app), read through `db`. */
export async function hasSecondFactor(db: Kysely<Database>, userId: string): Promise<boolean> {
  const factors = await factorsOf(db, userId);
  return factors.some((name) => (SECOND_FACTORS as readonly string[]).includes(name));
}

/**
 * Enrolling the account's FIRST second factor proves it in the session that enrolled it (the app's first
 * code, the passkey's registration with user verification): that is the path to enrol that the
 * requirement offers, and the member continues without proving it again. Enrolling another while one
 * exists proves nothing here: the session must prove the one it has, or a stolen password and session
 * could add a factor of their own and pass an organisation's requirement.
 */
export async function recordFirstFactor(
  tx: Kysely<Database>,
  sessionId: string | undefined,
  hadFactor: boolean,
  now: number,
): Promise<void> {
  if (hadFactor || !sessionId) return;
  await tx
    .updateTable('sessions')
    .set({ factor_verified_at: now })
    .where('token_hash', '=', sessionId)
    .execute();
}
