import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { PassportError } from '../../errors';
import { hmac, randomToken } from '../../lib/crypto';
import type { Session } from '../sessions/sessions';

/**
 * What a verification ticket may be spent on. A ticket earned for one purpose never serves another:
 * the account-cancellation flow asks for `cancel_account`, the identifier changes for
 * `change_identifier`.
 */
export const VERIFICATION_PURPOSES = ['change_identifier', 'cancel_account'] as const;
export type VerificationPurpose = (typeof VERIFICATION_PURPOSES)[number];

export const isVerificationPurpose = (value: unknown): value is VerificationPurpose =>
  typeof value === 'string' && (VERIFICATION_PURPOSES as readonly string[]).includes(value);

/** How the signed-in person proved it is them. */
/** How a ticket was earned: a code, the password, or a factor of src/domain/factors by its name. */
export type VerificationMethod = 'mobile' | 'email' | 'password' | 'totp' | 'recovery_code' | (string & {});

export interface IssuedVerification {
  ticket: string;
  /** Seconds the ticket stays valid. */
  expiresIn: number;
}

export interface VerificationTickets {
  /** A single-use ticket for the session that just proved it is its user, for one purpose. */
  issue(
    session: Pick<Session, 'id' | 'userId'>,
    purpose: VerificationPurpose,
    method: VerificationMethod,
  ): Promise<IssuedVerification>;
  /**
   * Uses a ticket up, or throws VERIFICATION_INVALID: unknown, used, expired, earned by another
   * session (or user), or for another purpose. Answers how it was earned.
   */
  consume(
    session: Session,
    ticket: string,
    purpose: VerificationPurpose,
  ): Promise<{ method: VerificationMethod }>;
}

const TICKET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Verification tickets (src/db/schema `verification_tickets`): 256 random bits handed to the client
 * once and stored only as HMAC(secret, ticket); bound to the user and to the session that earned it
 * (a ticket lifted from one browser is worthless in another, even signed in to the same account),
 * alive `limits.ticketTtlMs`. Consumption is one conditional UPDATE (`used_at IS NULL`, unexpired,
 * session, user and purpose matching) with RETURNING: of concurrent uses exactly one wins, and a use
 * by the wrong session or for the wrong purpose matches nothing and leaves the ticket alone.
 */
export function createVerificationTickets(
  app: FastifyInstance,
  /** Where the tickets are read and written: an operation's transaction (ctx.verifications), else the app's handle. */
  db = app.db,
): VerificationTickets {
  const { secret, runtime } = app;
  const hashOf = (ticket: string) => verificationHash(secret, ticket);

  return {
    async issue(session, purpose, method) {
      const ticket = randomToken(32);
      const now = runtime.now();
      await db
        .insertInto('verification_tickets')
        .values({
          ticket_hash: hashOf(ticket),
          user_id: session.userId,
          session_id: session.id,
          purpose,
          method,
          created_at: now,
          expires_at: now + runtime.limits.ticketTtlMs,
          used_at: null,
        })
        .execute();
      return { ticket, expiresIn: Math.round(runtime.limits.ticketTtlMs / 1000) };
    },

    consume: (session, ticket, purpose) =>
      spendVerification(db, secret, runtime.now(), {
        userId: session.userId,
        sessionId: session.id,
        ticket,
        purpose,
      }),
  };
}

const verificationHash = (secret: Buffer, ticket: string) => hmac(secret, `verification|${ticket}`);

/**
 * Uses a verification ticket up through `db` (an operation's transaction: a change that fails keeps
 * it), or throws VERIFICATION_INVALID (see `VerificationTickets.consume`).
 */
export async function spendVerification(
  db: Kysely<Database>,
  secret: Buffer,
  now: number,
  demand: { userId: string; sessionId: string; ticket: string; purpose: VerificationPurpose },
): Promise<{ method: VerificationMethod }> {
  if (!TICKET_SHAPE.test(demand.ticket)) throw new PassportError('verificationInvalid');
  const row = await db
    .updateTable('verification_tickets')
    .set({ used_at: now })
    .where('ticket_hash', '=', verificationHash(secret, demand.ticket))
    .where('user_id', '=', demand.userId)
    .where('session_id', '=', demand.sessionId)
    .where('purpose', '=', demand.purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['method'])
    .executeTakeFirst();
  if (!row) throw new PassportError('verificationInvalid');
  return { method: row.method as VerificationMethod };
}
