import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PassportError } from '../../errors';
import { hmac, randomToken, safeEqual, sha256 } from '../../lib/crypto';
import { CaptchaDecisionCode, type CaptchaSubtype, DECISION_CONF_FIELD } from '../../protocol';
import { type ChallengeLimits, challengeLimitsOf } from './limits';
import { createPuzzlePool, type PuzzlePool } from './pool';
import { createPow, type PowChallenge, type PowMode } from './pow';
import { type PriceTier, priceOf } from './price';
import { createCaptchaProvider } from './providers';
import type { PuzzleAnswer, PuzzleView, Submission } from './puzzle';
import { puzzleKinds } from './puzzles/index';
import { pick } from './random';

/** Who draws a puzzle: the client address (already keyed: IPv6 by /64) and the device it names. */
export interface DrawClient {
  ip: string;
  device: string;
}

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
  /** 'accessible': no picture; the proof of work and the cooldown (`wait`) are the whole check. */
  mode: PowMode;
  /** Seconds before an accessible round may pass. */
  wait?: number;
  /** The proof of work the next answer must carry (the same price on either route). */
  pow: PowChallenge;
  /**
   * A third-party challenge to pass too (behind) or instead of the picture: its widget's key and script.
   * Absent on the accessible route and on a fall-back round.
   */
  provider?: { name: string; site_key: string; mode: 'behind' | 'instead'; script_url: string };
  view: PuzzleView;
}

/** What the risk rule knew when it demanded a challenge: it prices the proof of work. */
export interface DemandSignals {
  /** How far past its threshold the rule was (1: at it). */
  risk?: number;
  /** The target the request named (normalised), when it named one. */
  target?: string;
}

export interface Challenges {
  readonly limits: ChallengeLimits;
  /**
   * Demands a challenge before `action` (a normalised route URL): stores a fresh challenge id and
   * returns the failure data that names it (`verify_center_decision_conf`).
   */
  demand(action: string, subtype?: CaptchaSubtype, signals?: DemandSignals): Promise<Record<string, string>>;
  /**
   * Draws a fresh puzzle (or, `accessible`, a round without a picture) for a live challenge id; the
   * previous puzzle of that id dies. Capped per address and device; the proof of work it hands out is
   * priced by src/domain/challenge/price.ts (the demanding rule's risk, what this address, device and
   * target drew lately, and everybody's draws) and bound to this address and device. `withoutProvider`
   * (a provider behind the picture whose widget could not run in the page): the picture alone, at the
   * same price.
   */
  draw(
    challengeId: string,
    language: 'zh' | 'en',
    client: DrawClient,
    options?: { accessible?: boolean; withoutProvider?: boolean },
  ): Promise<DrawnPuzzle>;
  /**
   * Checks an answer and its proof of work (spent first: a missing, wrong, replayed or foreign
   * solution, or one drawn from another address or device, is CHALLENGE_POW_INVALID and costs no try);
   * right: the challenge is spent and a one-time pass bound to `binding` returned.
   */
  verify(
    challengeId: string,
    submission: Submission & {
      pow?: string | undefined;
      provider_token?: string | undefined;
      remoteip?: string | undefined;
    },
    binding: PassBinding,
    client: DrawClient,
  ): Promise<{ pass: string; expires_in: number; action: string }>;
  /** The pre-rendered puzzles (tests and the bench read how many were rendered). */
  readonly pool: PuzzlePool;
  /** Spends a pass when it is alive and bound to this action, fingerprint and browser; else false. */
  redeem(pass: string, action: string, binding: PassBinding): Promise<boolean>;
  /**
   * Whether a client's human-check token holds for `action`: a pass of our own challenge (spent as
   * `redeem` spends it), else a token of the configured provider, verified through its API (which
   * refuses a replayed token). Anything else, or no provider, is false.
   */
  provesHuman(token: string, action: string, binding: PassBinding, remoteip: string): Promise<boolean>;
  /** The expected answer of a challenge's current puzzle (the dev-only endpoint reads it). */
  answerOf(challengeId: string): Promise<PuzzleAnswer | null>;
  /** The pass binding of a request: its `fp` (body, then query) and its browser. */
  bindingOf(request: FastifyRequest): PassBinding;
}

interface ChallengeRecord {
  action: string;
  subtype: CaptchaSubtype;
  expiresAt: number;
  /** DemandSignals: the risk, and a keyed hash of the target (never the target itself). */
  risk?: number;
  target?: string;
}
interface PuzzleRecord {
  serial: number;
  answer: PuzzleAnswer;
  expiresAt: number;
  mode: PowMode;
  /** The proof of work's price for this puzzle's tries: attempts, and iterations per attempt. */
  attempts: number;
  cost: number;
  tier: PriceTier;
  /** A fall-back round: the provider behind the picture is not asked. */
  withoutProvider?: boolean;
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
  const pool = createPuzzlePool({
    size: limits.puzzlePoolSize,
    lanes: limits.renderLanes,
    maxWaiting: limits.renderMaxWaiting,
    share: limits.renderShare,
    niceness: limits.renderNiceness,
  });
  const pow = createPow({ secret, store, now: () => runtime.now() });
  const providerConfig = app.config.captchaProvider;
  const provider = providerConfig ? createCaptchaProvider(providerConfig) : undefined;
  const triesOf = (subtype: CaptchaSubtype, mode: PowMode): number =>
    mode === 'accessible'
      ? limits.puzzleMaxTries
      : Math.min(limits.puzzleMaxTries, puzzleKinds[subtype].maxTries ?? limits.puzzleMaxTries);
  const key = {
    challenge: (id: string) => `vc:c:${id}`,
    draws: (id: string) => `vc:n:${id}`,
    /** Each draw's record under its own serial: a slow draw can never land over a newer one's. */
    puzzle: (id: string, serial: number) => `vc:p:${id}:${serial}`,
    tries: (id: string, serial: number) => `vc:t:${id}:${serial}`,
    pass: (pass: string) => `vc:pass:${sha256(pass)}`,
  };

  /** The record of the challenge's latest draw: the one its client holds, whichever draw finished last. */
  const currentPuzzleKey = async (id: string) => key.puzzle(id, await store.count(key.draws(id)));

  async function liveChallenge(id: string): Promise<ChallengeRecord> {
    const record = parse<ChallengeRecord>(await store.get(key.challenge(id)), runtime.now());
    if (!record) throw new PassportError('challengeExpired', { tries_left: 0 });
    return record;
  }

  const challenges: Challenges = {
    limits,
    pool,

    async demand(action, subtype, signals = {}) {
      const kind = subtype ?? pick(limits.challengeKinds.length ? limits.challengeKinds : ['text']);
      // Most demanded challenges are drawn within seconds: have one ready.
      pool.warm(kind);
      const id = randomToken(18);
      const record: ChallengeRecord = {
        action,
        subtype: kind,
        expiresAt: runtime.now() + limits.challengeTtlMs,
        risk: Math.max(1, Number.isFinite(signals.risk) ? (signals.risk as number) : 1),
      };
      if (signals.target) record.target = hmac(secret, `vc|t|${signals.target}`);
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

    async draw(challengeId, language, client, options = {}) {
      const challenge = await liveChallenge(challengeId);
      const rendering = !options.accessible && provider?.mode !== 'instead';
      // Only a provider behind the picture can be left out; `instead`, the picture is not there to fall back on.
      const withoutProvider = !options.accessible && provider?.mode === 'behind' && !!options.withoutProvider;
      // A flood meets an empty pool and a full waiting room: turned away before any store write.
      if (rendering && !pool.admits(challenge.subtype)) throw new PassportError('challengeBusy');
      // Caps per address and per device: a render (or an accessible round) costs the server.
      const window = limits.puzzleRateWindowMs;
      const [perIp, perDevice] = await Promise.all([
        store.incr(`vc:draw:ip:${client.ip}`, window),
        client.device ? store.incr(`vc:draw:dev:${client.device}`, window) : 0,
      ]);
      if (perIp > limits.puzzlesPerIp || perDevice > limits.puzzlesPerDevice) {
        throw new PassportError('challengeRateLimited');
      }
      // Only an admitted draw raises the target's and everybody's price: refused draws from one address
      // must not switch on the attack price for every person.
      const [perTarget, everybody] = await Promise.all([
        challenge.target ? store.incr(`vc:draw:t:${challenge.target}`, window) : 0,
        store.incr('vc:draw:all', window),
      ]);
      const serial = await store.incr(key.draws(challengeId), limits.challengeTtlMs);
      if (serial > limits.puzzlesPerChallenge) {
        await store.delete(key.challenge(challengeId));
        throw new PassportError('challengeExpired', { tries_left: 0 });
      }
      const mode: PowMode = options.accessible ? 'accessible' : 'puzzle';
      // One price for every route: the picture, the check without one and a fall-back round alike.
      const price = priceOf(
        {
          risk: challenge.risk ?? 1,
          addressDraws: perIp,
          deviceDraws: perDevice,
          targetDraws: perTarget,
          globalDraws: everybody,
        },
        limits,
      );
      const now = runtime.now();
      let view: PuzzleView;
      let answer: PuzzleAnswer;
      if (mode === 'accessible') {
        answer = { kind: 'accessible', readyAt: now + limits.accessibleCooldownMs };
        view = { image: '', width: 0, height: 0 };
      } else if (provider?.mode === 'instead') {
        // The provider's widget is the whole picture: nothing to render.
        answer = { kind: 'provider' };
        view = { image: '', width: 0, height: 0 };
      } else {
        const puzzle = await pool.take(challenge.subtype);
        // A newer draw of this challenge began while this one waited for its picture (the person chose
        // the check without a picture meanwhile): that round is the current one, and this picture is
        // not shown. (One that slips past this read is stored under its own serial, never read again.)
        if ((await store.count(key.draws(challengeId))) !== serial) throw new PassportError('challengeBusy');
        answer = puzzle.answer;
        view = puzzle.prompts ? { ...puzzle.view, prompt: puzzle.prompts[language] } : puzzle.view;
      }
      const ttl = Math.min(limits.puzzleTtlMs, challenge.expiresAt - now);
      const record: PuzzleRecord = {
        serial,
        answer,
        expiresAt: now + ttl,
        mode,
        attempts: price.attempts,
        cost: limits.powCost,
        tier: price.tier,
      };
      if (withoutProvider) record.withoutProvider = true;
      await store.set(key.puzzle(challengeId, serial), JSON.stringify(record), ttl);
      const drawnPuzzle: DrawnPuzzle = {
        challenge_id: challengeId,
        subtype: challenge.subtype,
        expires_in: Math.floor(ttl / 1000),
        tries_left: triesOf(challenge.subtype, mode),
        mode,
        pow: await pow.issue({ challengeId, serial, mode, ...client }, price.attempts, limits.powCost, ttl),
        view,
      };
      if (mode === 'accessible') drawnPuzzle.wait = Math.ceil(limits.accessibleCooldownMs / 1000);
      else if (providerConfig && !withoutProvider) {
        drawnPuzzle.provider = {
          name: providerConfig.name,
          site_key: providerConfig.siteKey,
          mode: providerConfig.mode,
          script_url: providerConfig.scriptUrl,
        };
      }
      return drawnPuzzle;
    },

    async verify(challengeId, submission, binding, client) {
      const challenge = await liveChallenge(challengeId);
      const puzzleKey = await currentPuzzleKey(challengeId);
      const puzzle = parse<PuzzleRecord>(await store.get(puzzleKey), runtime.now());
      if (!puzzle) throw new PassportError('challengeExpired', { tries_left: 0 });
      const mode = puzzle.mode ?? 'puzzle';
      if (puzzle.answer.kind === 'accessible' && runtime.now() < puzzle.answer.readyAt) {
        throw new PassportError('challengeTooEarly', {
          wait: Math.ceil((puzzle.answer.readyAt - runtime.now()) / 1000),
        });
      }
      // The work first: a request without a valid, unspent solution for this very puzzle costs no try
      // and is never judged.
      const work = await pow.spend(submission.pow ?? '', {
        challengeId,
        serial: puzzle.serial,
        mode,
        ...client,
      });
      if (work !== 'ok') throw new PassportError('challengePowInvalid');
      // Charge the try before judging it: parallel answers cannot race past the limit.
      const tries = await store.incr(key.tries(challengeId, puzzle.serial), limits.puzzleTtlMs);
      const left = triesOf(challenge.subtype, mode) - tries;
      if (left < 0) {
        await store.delete(puzzleKey);
        throw new PassportError('challengeExpired', { tries_left: 0 });
      }
      const kind = puzzle.answer.kind;
      let right =
        kind === 'accessible' ||
        kind === 'provider' ||
        puzzleKinds[challenge.subtype].check(puzzle.answer, submission);
      // The provider behind (or instead of) the picture; the accessible route never depends on it.
      let providerRefused = false;
      if (right && provider && kind !== 'accessible' && !puzzle.withoutProvider) {
        const idempotency = `${challengeId}:${puzzle.serial}:${tries}`;
        providerRefused = !(await provider.verify(
          submission.provider_token ?? '',
          submission.remoteip ?? '',
          idempotency,
        ));
        right = !providerRefused;
      }
      if (!right) {
        const fatal =
          !providerRefused &&
          kind !== 'accessible' &&
          kind !== 'provider' &&
          puzzleKinds[challenge.subtype].fatal?.(puzzle.answer, submission);
        // The last try refused by the provider says so too: the client knows its token was spent.
        const code = providerRefused ? 'challengeProviderFailed' : 'challengeFailed';
        if (left === 0 || fatal) {
          await store.delete(puzzleKey);
          throw new PassportError(code, { tries_left: 0 });
        }
        // Every try pays its own work: the next one comes with the refusal.
        const ttl = Math.max(1000, puzzle.expiresAt - runtime.now());
        const next = await pow.issue(
          { challengeId, serial: puzzle.serial, mode, ...client },
          puzzle.attempts,
          puzzle.cost,
          ttl,
        );
        throw new PassportError(code, { tries_left: left, pow: next });
      }
      // Single use: of concurrent right answers, one takes the puzzle and the challenge.
      const taken = parse<PuzzleRecord>(await store.take(puzzleKey), runtime.now());
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

    async provesHuman(token, action, binding, remoteip) {
      if (PASS_PATTERN.test(token) && (await challenges.redeem(token, action, binding))) return true;
      return provider ? provider.verify(token, remoteip, randomUUID()) : false;
    },

    async answerOf(challengeId) {
      return (
        parse<PuzzleRecord>(await store.get(await currentPuzzleKey(challengeId)), runtime.now())?.answer ??
        null
      );
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
