import type { Limits } from '../../limits';
import type { CaptchaSubtype } from '../../protocol';

/**
 * The challenge's numbers. They join `Limits` (so `buildServer({ limits })` overrides them like any
 * other security number) but live here, beside the code that reads them.
 */
export interface ChallengeLimits {
  /** Sign-in failures on one target (account) within riskFailureWindowMs before a challenge. */
  challengeAfterTargetFailures: number;
  /** Failures from one client address (IPv6 by /64) within riskFailureWindowMs before a challenge. */
  challengeAfterIpFailures: number;
  /** Failures from one device (fp / s_v_web_id) within riskFailureWindowMs before a challenge. */
  challengeAfterDeviceFailures: number;
  riskFailureWindowMs: number;
  /** Code sends within riskBurstWindowMs per address, per device and per target before a challenge. */
  challengeAfterSendsPerIp: number;
  challengeAfterSendsPerDevice: number;
  challengeAfterSendsPerTarget: number;
  /** "Is this mobile/e-mail registered?" lookups within riskBurstWindowMs per address and device. */
  challengeAfterLookupsPerIp: number;
  challengeAfterLookupsPerDevice: number;
  riskBurstWindowMs: number;
  /** How long a demanded challenge id may wait for its first puzzle and answers. */
  challengeTtlMs: number;
  /** One puzzle's life, and its tries. */
  puzzleTtlMs: number;
  puzzleMaxTries: number;
  /** Fresh puzzles one challenge id may draw ("new image"), after which it is dead. */
  puzzlesPerChallenge: number;
  /** A pass's life (single use). */
  challengePassTtlMs: number;
  /**
   * The kinds the risk rules pick from at random. Slide and whirl are not among the defaults: a script
   * that finds slide's gaps and guesses passes one puzzle in three, one that reads whirl's upright
   * features turns half of them upright (docs/security.md), and with a weak kind in the mix a bot
   * abandons every other kind until the weak one comes up. A deployment may still name them here.
   */
  challengeKinds: readonly CaptchaSubtype[];
  /**
   * Proof of work (ALTCHA v2, PBKDF2/SHA-256; src/domain/challenge/price.ts, docs/security.md): one
   * attempt derives one key of `powCost` iterations; the price is how many attempts the hidden counter
   * may need (half of it on average). `powAttempts` at the lowest risk, doubled for each sign of risk
   * (how far past its threshold the rule was; every `powRampEvery` puzzles one address or device drew
   * and every `powTargetRampEvery` puzzles drawn for one target in `puzzleRateWindowMs`; twice when
   * everybody drew more than `powAttackDraws` in that window), up to `powPersonCap`: the most a person on
   * the reference phone pays. An address or device past `powBotAfterDraws` puzzles in the window pays
   * `powBotAttempts`, the bot price, whatever the cap.
   */
  powCost: number;
  powAttempts: number;
  powRampEvery: number;
  powTargetRampEvery: number;
  powAttackDraws: number;
  powPersonCap: number;
  powBotAttempts: number;
  powBotAfterDraws: number;
  /** The accessible route (no picture): the same price as a puzzle, and a cooldown before it may pass. */
  accessibleCooldownMs: number;
  /** Puzzles (renders or accessible rounds) one address (IPv6 /64) or device may draw per window. */
  puzzlesPerIp: number;
  puzzlesPerDevice: number;
  puzzleRateWindowMs: number;
  /** The pre-rendered pool: ready puzzles per kind, renders at once, requests that may wait. */
  puzzlePoolSize: number;
  renderLanes: number;
  renderMaxWaiting: number;
  /** The share of its time the render lane may spend rendering (the rest it rests): see pool.ts. */
  renderShare: number;
  /** The render process's CPU priority (nice, 0–19): see render-process.ts. */
  renderNiceness: number;
}

declare module '../../limits' {
  interface Limits extends Partial<ChallengeLimits> {}
}

export const defaultChallengeLimits: ChallengeLimits = {
  challengeAfterTargetFailures: 3,
  challengeAfterIpFailures: 10,
  challengeAfterDeviceFailures: 5,
  riskFailureWindowMs: 15 * 60_000,
  challengeAfterSendsPerIp: 5,
  challengeAfterSendsPerDevice: 5,
  challengeAfterSendsPerTarget: 3,
  challengeAfterLookupsPerIp: 5,
  challengeAfterLookupsPerDevice: 5,
  riskBurstWindowMs: 10 * 60_000,
  challengeTtlMs: 5 * 60_000,
  puzzleTtlMs: 2 * 60_000,
  puzzleMaxTries: 3,
  puzzlesPerChallenge: 5,
  challengePassTtlMs: 2 * 60_000,
  challengeKinds: ['text', '3d'],
  // Reference phone (docs/security.md): ~1.6 ms per attempt. 500 attempts: at most ~1 s, a script
  // ~0.2 CPU-s; 5,000: at most ~8-9 s, a script ~2 CPU-s; 100,000: a script ~37-45 CPU-s per pass.
  powCost: 5_000,
  powAttempts: 500,
  powRampEvery: 3,
  powTargetRampEvery: 3,
  powAttackDraws: 2_000,
  powPersonCap: 5_000,
  powBotAttempts: 100_000,
  powBotAfterDraws: 12,
  accessibleCooldownMs: 15_000,
  puzzlesPerIp: 40,
  puzzlesPerDevice: 20,
  puzzleRateWindowMs: 10 * 60_000,
  puzzlePoolSize: 2,
  renderLanes: 1,
  renderMaxWaiting: 8,
  renderShare: 0.25,
  renderNiceness: 19,
};

/** The counts before a captcha that RISK_THRESHOLDS=relaxed raises. */
const RISK_COUNTS = [
  'challengeAfterTargetFailures',
  'challengeAfterIpFailures',
  'challengeAfterDeviceFailures',
  'challengeAfterSendsPerIp',
  'challengeAfterSendsPerDevice',
  'challengeAfterSendsPerTarget',
  'challengeAfterLookupsPerIp',
  'challengeAfterLookupsPerDevice',
] as const;

/**
 * RISK_THRESHOLDS=relaxed (development on a loopback origin only): every count before a captcha in
 * force, a hundred times over (5 code sends from one address in 10 minutes become 500), so that a
 * developer trying sign-in over and over is not asked for a captcha after five sends. The windows, the
 * send caps and the code-guess budget stay as they are.
 */
export function relaxRiskLimits(limits: Limits): Limits {
  const out: Record<string, unknown> = { ...limits };
  for (const key of RISK_COUNTS) out[key] = (limits[key] ?? defaultChallengeLimits[key]) * 100;
  return out as unknown as Limits;
}

/** The challenge numbers in force: the defaults, overridden by what buildServer was handed. */
export function challengeLimitsOf(limits: Limits): ChallengeLimits {
  const out: Record<string, unknown> = { ...defaultChallengeLimits };
  for (const key of Object.keys(defaultChallengeLimits)) {
    const value = (limits as unknown as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out as unknown as ChallengeLimits;
}

/**
 * POW_DIFFICULTY=test (loopback origins only, src/config.ts): a proof of work a hundred times cheaper
 * per attempt and ten times smaller, so that browser tests pay milliseconds; the prices still rise and
 * cap as in production.
 */
export function testPowLimits(limits: Limits): Limits {
  return {
    ...limits,
    powCost: 50,
    powAttempts: 60,
    powPersonCap: 600,
    powBotAttempts: 8_000,
  } as Limits;
}
