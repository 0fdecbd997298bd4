import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PassportError } from '../../errors';
import { hmac, randomToken, safeEqual, sha256 } from '../../lib/crypto';
import { CaptchaDecisionCode, type CaptchaSubtype, DECISION_CONF_FIELD } from '../../protocol';
import { type ChallengeLimits, challengeLimitsOf } from './limits';
import type { PuzzleAnswer, PuzzleView, Submission } from './puzzle';
import { puzzleKinds } from './puzzles/index';
import { pick } from './random';

/** What a pass is bound to: the device fingerprint and the browser (session or pre-session). */
export interface PassBinding {
  fp: string;
  holder: string;
}

export interface DrawnPuzzle {
  challenge_id: string;
  subtype: CaptchaSubtype;
  /** Seconds the puzzle stays answerable. */
  expires_in: number;
  tries_left: number;
  view: PuzzleView;
}

export interface Challenges {
  readonly limits: ChallengeLimits;
  /**
   * Demands a challenge before `action` (a normalised route URL): stores a fresh challenge id and
   * returns the failure data that names it (`verify_center_decision_conf`).
   */
  demand(action: string, subtype?: CaptchaSubtype): Promise<Record<string, string>>;
  /** Draws a fresh puzzle for a live challenge id; the previous puzzle of that id dies. */
  draw(challengeId: string, language: 'zh' | 'en'): Promise<DrawnPuzzle>;
  /** Checks an answer; right: the challenge is spent and a one-time pass bound to `binding` returned. */
  verify(
    challengeId: string,
    submission: Submission,
    binding: PassBinding,
  ): Promise<{ pass: string; expires_in: number; action: string }>;
  /** Spends a pass when it is alive and bound to this action, fingerprint and browser; else false. */
  redeem(pass: string, action: string, binding: PassBinding): Promise<boolean>;
  /** The expected answer of a challenge's current puzzle (the dev-only endpoint reads it). */
  answerOf(challengeId: string): Promise<PuzzleAnswer | null>;
  /** The pass binding of a request: its `fp` (body, then query) and its browser. */
  bindingOf(request: FastifyRequest): PassBinding;
}

interface ChallengeRecord {
  action: string;
  subtype: CaptchaSubtype;
  expiresAt: number;
}
interface PuzzleRecord {
  serial: number;
  answer: PuzzleAnswer;
  expiresAt: number;
}
interface PassRecord {
  action: string;
  fp: string;
  holder: string;
  expiresAt: number;
}

const CODES: Record<CaptchaSubtype, number> = {
  slide: CaptchaDecisionCode.slide,
  text: CaptchaDecisionCode.text,
  '3d': CaptchaDecisionCode.threeD,
  whirl: CaptchaDecisionCode.whirl,
};

export const CHALLENGE_ID_PATTERN = '^[A-Za-z0-9_-]{16,64}$';
const PASS_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A field of the body or the query, as a bounded string ('' when absent). */
export function fieldOf(request: FastifyRequest, name: string, max = 128): string {
  const body = request.body as Record<string, unknown> | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  const value = body && typeof body === 'object' && name in body ? body[name] : query?.[name];
  return typeof value === 'string' && value.length <= max ? value.trim() : '';
}

function parse<T extends { expiresAt: number }>(raw: string | null, now: number): T | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as T;
    // The store expires keys too (Redis on its own clock); the server's clock decides.
    return value.expiresAt > now ? value : null;
  } catch {
    return null;
  }
}

/**
 * The challenge service: challenge ids demanded by the risk rules, puzzles drawn fresh for them, and
 * one-time passes for solved ones. Everything lives in the store (database or Redis) with a time to
 * live, so any instance can serve any step; answers never leave the server.
 */
export function createChallenges(app: FastifyInstance): Challenges {
  const { store, runtime, secret } = app;
  const limits = challengeLimitsOf(runtime.limits);
  const key = {
    challenge: (id: string) => `vc:c:${id}`,
    draws: (id: string) => `vc:n:${id}`,
    puzzle: (id: string) => `vc:p:${id}`,
    tries: (id: string, serial: number) => `vc:t:${id}:${serial}`,
    pass: (pass: string) => `vc:pass:${sha256(pass)}`,
  };

  async function liveChallenge(id: string): Promise<ChallengeRecord> {
    const record = parse<ChallengeRecord>(await store.get(key.challenge(id)), runtime.now());
    if (!record) throw new PassportError('challengeExpired', { tries_left: 0 });
    return record;
  }

  const challenges: Challenges = {
    limits,

    async demand(action, subtype) {
      const kind = subtype ?? pick(limits.challengeKinds.length ? limits.challengeKinds : ['slide']);
      const id = randomToken(18);
      const record: ChallengeRecord = {
        action,
        subtype: kind,
        expiresAt: runtime.now() + limits.challengeTtlMs,
      };
      await store.set(key.challenge(id), JSON.stringify(record), limits.challengeTtlMs);
      return {
        [DECISION_CONF_FIELD]: JSON.stringify({
          code: CODES[kind],
          subtype: kind,
          challenge_id: id,
          action,
        }),
      };
    },

    async draw(challengeId, language) {
      const challenge = await liveChallenge(challengeId);
      const serial = await store.incr(key.draws(challengeId), limits.challengeTtlMs);
      if (serial > limits.puzzlesPerChallenge) {
        await store.delete(key.challenge(challengeId));
        throw new PassportError('challengeExpired', { tries_left: 0 });
      }
      const puzzle = await puzzleKinds[challenge.subtype].generate(language);
      const now = runtime.now();
      const ttl = Math.min(limits.puzzleTtlMs, challenge.expiresAt - now);
      const record: PuzzleRecord = { serial, answer: puzzle.answer, expiresAt: now + ttl };
      await store.set(key.puzzle(challengeId), JSON.stringify(record), ttl);
      return {
        challenge_id: challengeId,
        subtype: challenge.subtype,
        expires_in: Math.floor(ttl / 1000),
        tries_left: limits.puzzleMaxTries,
        view: puzzle.view,
      };
    },

    async verify(challengeId, submission, binding) {
      const challenge = await liveChallenge(challengeId);
      const puzzle = parse<PuzzleRecord>(await store.get(key.puzzle(challengeId)), runtime.now());
      if (!puzzle) throw new PassportError('challengeExpired', { tries_left: 0 });
      // Charge the try before judging it: parallel answers cannot race past the limit.
      const tries = await store.incr(key.tries(challengeId, puzzle.serial), limits.puzzleTtlMs);
      const left = limits.puzzleMaxTries - tries;
      if (left < 0) {
        await store.delete(key.puzzle(challengeId));
        throw new PassportError('challengeExpired', { tries_left: 0 });
      }
      if (!puzzleKinds[challenge.subtype].check(puzzle.answer, submission)) {
        if (left === 0) await store.delete(key.puzzle(challengeId));
        throw new PassportError('challengeFailed', { tries_left: left });
      }
      // Single use: of concurrent right answers, one takes the puzzle and the challenge.
      const taken = parse<PuzzleRecord>(await store.take(key.puzzle(challengeId)), runtime.now());
      if (!taken || taken.serial !== puzzle.serial || !(await store.take(key.challenge(challengeId)))) {
        throw new PassportError('challengeExpired', { tries_left: 0 });
      }
      const pass = randomToken(32);
      const record: PassRecord = {
        action: challenge.action,
        fp: binding.fp,
        holder: binding.holder,
        expiresAt: runtime.now() + limits.challengePassTtlMs,
      };
      await store.set(key.pass(pass), JSON.stringify(record), limits.challengePassTtlMs);
      return { pass, expires_in: Math.floor(limits.challengePassTtlMs / 1000), action: challenge.action };
    },

    async redeem(pass, action, binding) {
      if (!PASS_PATTERN.test(pass)) return false;
      const record = parse<PassRecord>(await store.get(key.pass(pass)), runtime.now());
      if (
        !record ||
        record.action !== action ||
        !safeEqual(record.fp, binding.fp) ||
        !safeEqual(record.holder, binding.holder)
      ) {
        return false;
      }
      return (await store.take(key.pass(pass))) !== null;
    },

    async answerOf(challengeId) {
      return parse<PuzzleRecord>(await store.get(key.puzzle(challengeId)), runtime.now())?.answer ?? null;
    },

    bindingOf(request) {
      const holder = request.session
        ? hmac(secret, `vc|s|${request.session.id}`)
        : request.preSessionId
          ? hmac(secret, `vc|p|${request.preSessionId}`)
          : '';
      return { fp: fieldOf(request, 'fp'), holder };
    },
  };

  return challenges;
}
