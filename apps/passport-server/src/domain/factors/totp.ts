import { hkdfSync } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { Database } from '../../db/schema';
import { PassportError } from '../../errors';
import { createSealer, type Sealer } from '../tokens/seal';

/**
 * Authenticator apps (TOTP, RFC 6238, with the `otpauth` library): SHA-1, 6 digits, 30-second steps,
 * the settings every authenticator app reads from an otpauth:// URI. One authenticator per account,
 * in `totp_factors`: enrolment writes a pending row with a new secret, the first right code confirms
 * it. A code is accepted for the step of now and one step either side; the step of each accepted code
 * is stored, and that step and every earlier one are spent (a code is usable once, and an older one
 * never after a newer one). The secret is stored sealed (AES-256-GCM, a key derived from the server
 * secret with HKDF, the user id as additional data, so a sealed secret copied to another row does not
 * open).
 */

export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
export const TOTP_ALGORITHM = 'SHA1';
/** Steps accepted either side of now. */
export const TOTP_WINDOW = 1;
/** How long a started enrolment waits for its first code. */
export const TOTP_ENROL_TTL_MS = 15 * 60_000;

const sealers = new WeakMap<Buffer, Sealer>();

/** The sealer of authenticator secrets: its own key, derived from the server secret. */
export function totpSealer(secret: Buffer): Sealer {
  let sealer = sealers.get(secret);
  if (!sealer) {
    sealer = createSealer(
      Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'portico/factors/totp/v1', 32)),
    );
    sealers.set(secret, sealer);
  }
  return sealer;
}

const context = (userId: string) => `totp:${userId}`;

/** The step a time falls in. */
export const stepAt = (nowMs: number): number => Math.floor(nowMs / 1000 / TOTP_PERIOD);

function totpOf(base32: string, label = 'account', issuer = 'Portico'): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    secret: Secret.fromBase32(base32),
  });
}

/**
 * The step whose code `code` is, within the window around `nowMs`, or null. The comparison is the
 * library's (constant time).
 */
export function matchStep(base32: string, code: string, nowMs: number): number | null {
  const given = code.replace(/\s+/g, '');
  if (!/^[0-9]{6}$/.test(given)) return null;
  const delta = totpOf(base32).validate({ token: given, timestamp: nowMs, window: TOTP_WINDOW });
  return delta === null ? null : stepAt(nowMs) + delta;
}

export interface TotpRow {
  secret: string;
  createdAt: number;
  confirmedAt: number | null;
  lastStep: number | null;
}

export async function totpRow(db: Kysely<Database>, userId: string): Promise<TotpRow | null> {
  const row = await db
    .selectFrom('totp_factors')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    secret: row.secret,
    createdAt: Number(row.created_at),
    confirmedAt: row.confirmed_at === null ? null : Number(row.confirmed_at),
    lastStep: row.last_step === null ? null : Number(row.last_step),
  };
}

/** Whether the account has a confirmed authenticator. */
export async function hasTotp(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('totp_factors')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Starts an enrolment: a new 160-bit secret (the library draws it from the platform's CSPRNG), sealed
 * into a pending row that replaces any earlier pending one. An account with a confirmed authenticator
 * must remove it first. Answers the secret (base32) and its otpauth:// URI, shown once.
 */
export async function startTotp(
  db: Kysely<Database>,
  secret: Buffer,
  userId: string,
  label: string,
  issuer: string,
  now: number,
): Promise<{ secret: string; uri: string }> {
  const base32 = new Secret({ size: 20 }).base32;
  const sealed = totpSealer(secret).seal(base32, context(userId));
  const written = await db
    .insertInto('totp_factors')
    .values({ user_id: userId, secret: sealed, created_at: now, confirmed_at: null, last_step: null })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ secret: sealed, created_at: now, last_step: null })
        .where('totp_factors.confirmed_at', 'is', null),
    )
    .executeTakeFirst();
  if (Number(written.numInsertedOrUpdatedRows ?? 0n) !== 1) throw new PassportError('factorAlreadyEnrolled');
  return { secret: base32, uri: totpOf(base32, label, issuer).toString() };
}

/**
 * Confirms a pending enrolment by its first code; the code's step is spent. Throws CODE_WRONG for a
 * wrong code, FACTOR_NOT_ENROLLED without a live pending enrolment (none, expired, or confirmed).
 */
export async function confirmTotp(
  db: Kysely<Database>,
  secret: Buffer,
  userId: string,
  code: string,
  now: number,
): Promise<void> {
  const row = await totpRow(db, userId);
  if (!row || row.confirmedAt !== null || row.createdAt + TOTP_ENROL_TTL_MS <= now)
    throw new PassportError('factorNotEnrolled');
  const step = matchStep(openSecret(secret, row.secret, userId), code, now);
  if (step === null) throw new PassportError('codeWrong');
  const confirmed = await db
    .updateTable('totp_factors')
    .set({ confirmed_at: now, last_step: step })
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is', null)
    .where('secret', '=', row.secret)
    .executeTakeFirst();
  if (Number(confirmed.numUpdatedRows) !== 1) throw new PassportError('factorNotEnrolled');
}

/**
 * The authenticator's secret, opened with the server secret. One sealed with another SECRET (changed
 * without a previous one to open it) cannot be used: FACTOR_UNAVAILABLE, not a 500, and the person
 * proves it another way or sets the app up again.
 */
function openSecret(secret: Buffer, sealed: string, userId: string): string {
  try {
    return totpSealer(secret).open(sealed, context(userId));
  } catch {
    throw new PassportError('factorUnavailable', { reason: 'sealed_with_another_secret' });
  }
}

/**
 * Checks a code of the account's confirmed authenticator and spends its step: of concurrent uses of
 * one code, one wins (a conditional UPDATE on `last_step`). CODE_WRONG for a wrong code,
 * TOTP_CODE_USED for the code of a step already spent, FACTOR_NOT_ENROLLED without an authenticator.
 */
export async function useTotp(
  db: Kysely<Database>,
  secret: Buffer,
  userId: string,
  code: string,
  now: number,
): Promise<void> {
  const row = await totpRow(db, userId);
  if (!row || row.confirmedAt === null) throw new PassportError('factorNotEnrolled');
  const step = matchStep(openSecret(secret, row.secret, userId), code, now);
  if (step === null) throw new PassportError('codeWrong');
  if (row.lastStep !== null && step <= row.lastStep) throw new PassportError('totpCodeUsed');
  const spent = await db
    .updateTable('totp_factors')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw new PassportError('totpCodeUsed');
}

/** Removes the account's authenticator (confirmed or pending); whether there was a confirmed one. */
export async function removeTotp(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await totpRow(db, userId);
  await db.deleteFrom('totp_factors').where('user_id', '=', userId).execute();
  return row?.confirmedAt != null;
}
