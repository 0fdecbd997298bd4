import { describe, expect, it } from 'vitest';
import { defaultChallengeLimits } from '../src/domain/challenge/limits';
import { type PriceSignals, priceOf, REFERENCE_PROFILE } from '../src/domain/challenge/price';

/**
 * The challenge's price as a cost (docs/security.md): a script pays CPU-seconds, a person on the
 * reference phone pays seconds of waiting. Both are computed from attempts (one PBKDF2 derivation of
 * `powCost` iterations each) and the reference profile's rates, never from a timer: the bounds hold on a
 * loaded machine. `pnpm bench` measures the rates themselves.
 */
const quiet: PriceSignals = { risk: 1, addressDraws: 1, deviceDraws: 1, targetDraws: 1, globalDraws: 1 };
const limits = defaultChallengeLimits;
const scriptSeconds = (attempts: number) =>
  ((attempts / 2) * limits.powCost) / REFERENCE_PROFILE.scriptIterationsPerSecond;
const personWorstSeconds = (attempts: number) =>
  (attempts * limits.powCost * REFERENCE_PROFILE.phoneSlowdown) /
  (REFERENCE_PROFILE.scriptIterationsPerSecond * REFERENCE_PROFILE.phoneCores);

describe('the price of the proof of work (defaults)', () => {
  it('costs a person on the reference phone at most ~1 s at the lowest risk', () => {
    const price = priceOf(quiet, limits);
    expect(price).toMatchObject({ tier: 'base', attempts: limits.powAttempts });
    expect(personWorstSeconds(price.attempts)).toBeLessThanOrEqual(1);
  });

  it('doubles with the risk score, per address, per target and under attack, capped at ~10 s for a person', () => {
    const risky = priceOf({ ...quiet, risk: 4 }, limits);
    expect(risky.attempts).toBe(limits.powAttempts * 4);
    expect(priceOf({ ...quiet, targetDraws: 1 + limits.powTargetRampEvery }, limits).attempts).toBe(
      limits.powAttempts * 2,
    );
    expect(priceOf({ ...quiet, globalDraws: limits.powAttackDraws + 1 }, limits).attempts).toBe(
      limits.powAttempts * 4,
    );
    const everything = priceOf(
      { risk: 64, addressDraws: 10, deviceDraws: 10, targetDraws: 500, globalDraws: 1e9 },
      limits,
    );
    expect(everything).toMatchObject({ tier: 'capped', attempts: limits.powPersonCap });
    expect(personWorstSeconds(everything.attempts)).toBeLessThanOrEqual(10);
  });

  it('charges a client past what one person draws at least 30 script CPU-seconds per pass', () => {
    const bot = priceOf({ ...quiet, addressDraws: limits.powBotAfterDraws + 1 }, limits);
    expect(bot.tier).toBe('bot');
    expect(scriptSeconds(bot.attempts)).toBeGreaterThanOrEqual(30);
    expect(priceOf({ ...quiet, deviceDraws: limits.powBotAfterDraws + 1 }, limits).tier).toBe('bot');
  });

  it('cannot be talked down: a nonsense risk score counts as the lowest, never below the base', () => {
    for (const risk of [0, -5, Number.NaN]) {
      expect(priceOf({ ...quiet, risk }, limits).attempts).toBe(limits.powAttempts);
    }
  });
});
