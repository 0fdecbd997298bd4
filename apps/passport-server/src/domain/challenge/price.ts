import type { ChallengeLimits } from './limits';

/**
 * The price of a challenge's proof of work, in attempts: the server hides a counter below the price
 * and the client derives one PBKDF2 key (`powCost` iterations) per counter from 0 up until it finds it,
 * so a solver pays on average half the price and at worst all of it, whoever runs it.
 *
 * The price doubles with each sign of risk, and stops at a cap a person on the reference phone pays in
 * at most ~10 s (docs/security.md); only a client that drew more puzzles than any one person does
 * (its address or device, in the draw window) goes past the cap, to the bot price.
 */
export interface PriceSignals {
  /**
   * How far past its threshold the rule that demanded the challenge was (1: just at it; 2: twice the
   * count). A challenge demanded directly (tests, tools) counts 1.
   */
  risk: number;
  /** Puzzles this address (IPv6 by /64) and this device drew in the draw window, this one included. */
  addressDraws: number;
  deviceDraws: number;
  /** Puzzles drawn for challenges on this target (a mobile, an e-mail, an account) in the window. */
  targetDraws: number;
  /** Puzzles drawn by everybody in the window: past `powAttackDraws`, the server is under attack. */
  globalDraws: number;
}

/**
 * The reference profile the defaults are set against (docs/security.md, measured by `pnpm bench`):
 * a script on one core of a current x86 server runs Node's native PBKDF2-HMAC-SHA-256 at ~6 million
 * iterations a second (the bench machine measured 6.1-6.6 million); the reference phone (a mid-range
 * phone: Chrome DevTools' "mid-tier mobile", a 4× CPU slowdown) runs WebCrypto's PBKDF2 at a quarter
 * of that per core, on two cores (its two fast cores; the solver runs up to four workers).
 */
export const REFERENCE_PROFILE = {
  scriptIterationsPerSecond: 6_000_000,
  phoneSlowdown: 4,
  phoneCores: 2,
} as const;

export type PriceTier = 'base' | 'raised' | 'capped' | 'bot';

export interface Price {
  /** The counter is drawn uniformly below this: attempts at worst, half of it on average. */
  attempts: number;
  tier: PriceTier;
  /** The doublings over the base price, before the cap. */
  steps: number;
}

type PriceLimits = Pick<
  ChallengeLimits,
  | 'powAttempts'
  | 'powPersonCap'
  | 'powBotAttempts'
  | 'powBotAfterDraws'
  | 'powRampEvery'
  | 'powTargetRampEvery'
  | 'powAttackDraws'
>;

const doublings = (count: number, every: number): number =>
  Math.floor(Math.max(0, count - 1) / Math.max(1, every));

/** The price of one draw from what the server knows about it (pure: tests and the bench call it). */
export function priceOf(signals: PriceSignals, limits: PriceLimits): Price {
  const repeated = Math.max(signals.addressDraws, signals.deviceDraws);
  if (repeated > limits.powBotAfterDraws) {
    return { attempts: Math.max(limits.powBotAttempts, limits.powPersonCap), tier: 'bot', steps: 0 };
  }
  const risk = Number.isFinite(signals.risk) && signals.risk > 1 ? signals.risk : 1;
  const steps =
    Math.floor(Math.log2(risk)) +
    doublings(repeated, limits.powRampEvery) +
    doublings(signals.targetDraws, limits.powTargetRampEvery) +
    (signals.globalDraws > limits.powAttackDraws ? 2 : 0);
  const raised = limits.powAttempts * 2 ** Math.min(steps, 30);
  if (raised >= limits.powPersonCap && steps > 0) {
    return { attempts: Math.max(limits.powAttempts, limits.powPersonCap), tier: 'capped', steps };
  }
  return { attempts: raised, tier: steps > 0 ? 'raised' : 'base', steps };
}
