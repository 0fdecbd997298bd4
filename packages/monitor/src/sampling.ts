import type { EventKind } from './events';

/**
 * What is sampled, each decided once per session: `session` gates everything, the others one event
 * kind each; `error_trace` decides failed SDK calls (so every failure is seen while successful calls
 * stay at the `http` rate).
 */
export type SamplingKind = Exclude<EventKind, 'session_start'> | 'session' | 'error_trace';

/**
 * The spec's rates (§9): session 1, page view 0.01, resource error 0.1, http 0.01, resource 0.1,
 * js error 1, error trace 1. The spec names no rate for web vitals (0.1, as resources: both measure
 * performance), the challenge loader and the funnel (1: rare, and the funnel must be counted whole).
 */
export const DEFAULT_SAMPLING: Readonly<Record<SamplingKind, number>> = Object.freeze({
  session: 1,
  page_view: 0.01,
  resource_error: 0.1,
  http: 0.01,
  resource: 0.1,
  js_error: 1,
  error_trace: 1,
  web_vital: 0.1,
  captcha: 1,
  funnel: 1,
});

export const SAMPLING_KINDS = Object.keys(DEFAULT_SAMPLING) as SamplingKind[];

/** The rates with the caller's overrides, each checked to be a probability. */
export function samplingRates(
  overrides: Partial<Record<SamplingKind, number>> = {},
): Record<SamplingKind, number> {
  const rates = { ...DEFAULT_SAMPLING };
  for (const [kind, rate] of Object.entries(overrides) as [SamplingKind, number | undefined][]) {
    if (!(kind in DEFAULT_SAMPLING)) {
      throw new TypeError(
        `@portico/monitor: unknown sampling kind '${kind}'. Use one of: ${SAMPLING_KINDS.join(', ')}.`,
      );
    }
    if (rate === undefined) continue;
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) {
      throw new TypeError(`@portico/monitor: sampling.${kind} is ${rate}. Give a probability from 0 to 1.`);
    }
    rates[kind] = rate;
  }
  return rates;
}

/** One draw: rates 0 and 1 need no random number. */
export const draw = (rate: number, random: () => number): boolean =>
  rate >= 1 ? true : rate <= 0 ? false : random() < rate;
