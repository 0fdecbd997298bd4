import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { codeMail, codeSms, type Language } from '../../delivery/templates';
import { PassportError } from '../../errors';
import { hmac, safeEqual } from '../../lib/crypto';
import { LIMITS } from '../../protocol';

export type Channel = 'mobile' | 'email';

/**
 * Who a code is for, and so who may guess it: 'owner' when the request comes from a device the target's
 * account remembers (its device token) or from a session of that account; for everyone else the client
 * that asked, `c:` and a keyed hash of its pre-session (or session) id, the browser binding CSRF uses.
 * A code is guessed only from the lane it was sent to: a stranger's guesses never reach another client's
 * code, nor the owner's, and each lane has its own live code and wrong-guess count. What stays per
 * number for strangers is the send cooldown and hourly count (the bound on how many codes, and so
 * guesses, strangers get): past the hourly count it slows down instead of refusing; what refuses there
 * is the count per client address. A second verification's sends, which need the password first, keep
 * their own such counts (`SendCodeRequest.proof`). '' is the shared lane of flows that name it
 * (invitations, manager transfer) and of a request with neither cookie, which the CSRF check never lets
 * send or guess. The model: the server README, "Security: no lockout an attacker can impose".
 */
export type CodeLane = typeof OWNER_LANE | `${typeof OWNER_LANE}:${string}` | '' | `c:${string}`;

/** The owner's lane: a device the target's account remembers, or a session of that account. */
export const OWNER_LANE = 'owner' as const;

/** Whether a lane is the owner's or one of its own (`owner:…`): sends with counts of their own per number. */
export const isOwnerLane = (lane: CodeLane): boolean =>
  lane === OWNER_LANE || lane.startsWith(`${OWNER_LANE}:`);

/**
 * The lane of the codes a session of the account asks for to confirm a QR sign-in (the two-step
 * variant): an owner's lane of that session's own, so its wrong guesses spend its own budget, never the
 * owner's sign-in codes' (a stolen session's five wrong guesses held the owner's SMS sign-in back for
 * ten minutes), and its sends have their own cooldown and hourly count.
 */
export const qrConfirmLaneOf = (app: FastifyInstance, sessionId: string): CodeLane =>
  `${OWNER_LANE}:${hmac(app.secret, `lane|qr|${sessionId}`).slice(0, 32)}`;

/** The lane of the client a request comes from (its pre-session, else its session), '' without one. */
export function clientLaneOf(app: FastifyInstance, request: FastifyRequest): CodeLane {
  // The pre-session first: it outlives a sign-in and a token rotation, so a code asked for before
  // either is still the asker's.
  if (request.preSessionId) return `c:${hmac(app.secret, `lane|p|${request.preSessionId}`).slice(0, 32)}`;
  if (request.session) return `c:${hmac(app.secret, `lane|s|${request.session.id}`).slice(0, 32)}`;
  return '';
}

/**
 * The lane of a request for a target: the owner's when a session of the account that holds the target
 * asks, or a device the account remembers (src/domain/devices `knowsTarget`); else the asking client's.
 */
export async function codeLaneOf(
  app: FastifyInstance,
  request: FastifyRequest,
  channel: Channel,
  target: string,
): Promise<CodeLane> {
  if (request.session?.user[channel] === target) return OWNER_LANE;
  return (await app.devices.knowsTarget(request, channel, target)) ? OWNER_LANE : clientLaneOf(app, request);
}

export interface SendCodeRequest {
  channel: Channel;
  /** E.164 mobile or normalised e-mail. */
  target: string;
  purpose: number;
  /** The client address, for the per-IP cap. */
  ip: string;
  language: Language;
  lane: CodeLane;
  /**
   * 'password' when the sender has just proved the account's password (a second verification): such
   * sends keep a cooldown and hourly count of their own per number, apart from the strangers', so
   * strangers who keep the number's cooldown armed never hold back the owner who has the password.
   */
  proof?: 'password';
}

export interface VerifyCodeRequest {
  channel: Channel;
  target: string;
  purpose: number;
  code: string;
  lane: CodeLane;
}

export interface Codes {
  /** Issues and delivers a code; returns the seconds until it expires. */
  send(request: SendCodeRequest): Promise<{ expiresIn: number; retryAfter: number }>;
  /** Consumes a code, or throws CODE_WRONG / CODE_EXPIRED / CODE_TOO_MANY_ATTEMPTS. */
  verify(request: VerifyCodeRequest): Promise<void>;
}

/**
 * One-time codes: 6 digits from crypto.randomInt, stored as HMAC(secret, purpose:channel:target:code),
 * alive 10 minutes, used once. Each guess is charged before it is compared (a conditional UPDATE on
 * `attempts < max`), so parallel guesses cannot race past the limit; consumption is a conditional
 * UPDATE on `used_at IS NULL`, so of many concurrent right answers exactly one wins. A resend supersedes
 * the live code and inherits its wrong-guess count: resending never buys more guesses.
 *
 * Above the count per code sits one guess budget per target (channel + normalised target) and lane,
 * whatever purpose a guess names: an endpoint that accepts several code types (sms_login takes three)
 * does not multiply the guesses. It is a store counter charged before the comparison (an atomic increment on
 * SQLite, PostgreSQL and Redis alike, so parallel guesses cannot race past it) and given back when the
 * guess was right or never judged: only wrong guesses spend it, at most `codeMaxAttempts` per
 * `codeGuessWindowMs`.
 */
export function createCodes(app: FastifyInstance): Codes {
  const { db, store, secret, gate, runtime, config } = app;
  const limits = runtime.limits;
  const hashOf = (purpose: number, channel: Channel, target: string, code: string) =>
    hmac(secret, `otp|${purpose}|${channel}|${target}|${code}`);

  // One wrong-guess budget per target (issue 9, item 5) — per lane, so a stranger spending his never
  // spends the owner's, on a known device or a new one (item 2). A lane guesses only its own codes, so
  // the strangers' guesses on a number stay within five per code their sends produced.
  const budgetKey = (channel: Channel, target: string, lane: CodeLane) =>
    `code:guesses:${lane}:${channel}:${target}`;

  const liveCode = (channel: Channel, target: string, purpose: number, lane: CodeLane) =>
    db
      .selectFrom('one_time_codes')
      .selectAll()
      .where('target', '=', target)
      .where('purpose', '=', purpose)
      .where('channel', '=', channel)
      .where('lane', '=', lane)
      .where('used_at', 'is', null)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();

  async function send(request: SendCodeRequest) {
    const { channel, target, purpose, lane } = request;
    const now = runtime.now();
    // Strangers share the number's cooldown and hourly count, whichever client asks: those counts are
    // what bound the codes (and so the guesses) strangers get. Senders who proved the password share a
    // second set, under the same rules: only the password reaches it.
    const stranger = !isOwnerLane(lane);
    const key = !stranger ? `${target}:${lane}` : request.proof ? `${target}:${request.proof}` : target;
    const proven = !stranger || request.proof !== undefined;
    const admission = await gate.admitCode({ channel, key, purpose, stranger, ip: request.ip, proven });
    const cooldownMs = admission.cooldownMs;

    const previous = await liveCode(channel, target, purpose, lane);
    const inherited = previous && previous.expires_at > now ? previous.attempts : 0;
    // A code that could not be tried is not sent (nor is the cooldown charged for it).
    const spent = await store.count(budgetKey(channel, target, lane));
    if (inherited >= limits.codeMaxAttempts || spent >= limits.codeMaxAttempts) {
      await admission.release();
      throw new PassportError('codeTooManyAttempts');
    }

    const code = String(randomInt(0, 10 ** LIMITS.codeLength)).padStart(LIMITS.codeLength, '0');
    const id = randomUUID();
    await db
      .insertInto('one_time_codes')
      .values({
        id,
        purpose,
        channel,
        target,
        code_hash: hashOf(purpose, channel, target, code),
        created_at: now,
        expires_at: now + limits.codeTtlMs,
        attempts: inherited,
        used_at: null,
        lane,
      })
      .execute();

    const minutes = Math.round(limits.codeTtlMs / 60_000);
    try {
      await gate.deliver(
        admission,
        channel === 'mobile'
          ? { channel: 'sms', message: codeSms(target, code, minutes, config.appName, request.language) }
          : { channel: 'email', message: codeMail(target, code, minutes, config.appName, request.language) },
      );
    } catch (error) {
      // The user got nothing: the undelivered code must not stay guessable.
      await db.deleteFrom('one_time_codes').where('id', '=', id).execute();
      throw error;
    }

    await db
      .updateTable('one_time_codes')
      .set({ used_at: now })
      .where('target', '=', target)
      .where('purpose', '=', purpose)
      .where('channel', '=', channel)
      .where('lane', '=', lane)
      .where('used_at', 'is', null)
      .where('id', '!=', id)
      .execute();
    return {
      expiresIn: Math.round(limits.codeTtlMs / 1000),
      retryAfter: Math.round(cooldownMs / 1000),
    };
  }

  async function verify(request: VerifyCodeRequest) {
    const { channel, target, purpose, lane } = request;
    const row = await liveCode(channel, target, purpose, lane);
    const now = runtime.now();
    if (!row || row.expires_at <= now) throw new PassportError('codeExpired');
    if (row.attempts >= limits.codeMaxAttempts) throw new PassportError('codeTooManyAttempts');

    // Charge the guess first, to the target and then to the code: only the first `max` guesses, in
    // whatever order and under whatever purpose they arrive, are judged.
    const budget = budgetKey(channel, target, lane);
    if ((await store.incr(budget, limits.codeGuessWindowMs)) > limits.codeMaxAttempts) {
      await refund(budget);
      throw new PassportError('codeTooManyAttempts');
    }
    try {
      await judge(request, row.id, row.code_hash, now);
    } catch (error) {
      if (!(error instanceof PassportError && error.errorName === 'codeWrong')) await refund(budget);
      throw error;
    }
    await refund(budget);
  }

  /** Gives a guess back; best effort, as the outcome is settled (a right code is already consumed). */
  function refund(budget: string): Promise<void> {
    return store
      .decrement(budget)
      .catch((error: unknown) => app.log.warn({ err: error }, 'guess refund failed'));
  }

  /** Charges the code one attempt, compares, consumes; throws CODE_WRONG only for a judged wrong guess. */
  async function judge(request: VerifyCodeRequest, id: string, codeHash: string, now: number) {
    const { channel, target, purpose } = request;
    const charged = await db
      .updateTable('one_time_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('attempts', '<', limits.codeMaxAttempts)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(charged.numUpdatedRows) !== 1) {
      const fresh = await db
        .selectFrom('one_time_codes')
        .select(['attempts', 'used_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (fresh && fresh.used_at === null && fresh.attempts >= limits.codeMaxAttempts) {
        throw new PassportError('codeTooManyAttempts');
      }
      throw new PassportError('codeExpired');
    }

    const given = request.code.trim();
    if (!/^[0-9]{6}$/.test(given) || !safeEqual(hashOf(purpose, channel, target, given), codeHash)) {
      throw new PassportError('codeWrong');
    }
    const consumed = await db
      .updateTable('one_time_codes')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(consumed.numUpdatedRows) !== 1) throw new PassportError('codeExpired');
  }

  return { send, verify };
}
