/**
 * The challenge decision (spec §4, §8): a failure whose data carries `verify_center_decision_conf`
 * asks the client to pass a challenge, then resend the original request with `fp` and `isResend`.
 */

export const DECISION_CONF_FIELD = 'verify_center_decision_conf';

/** The field a resent request carries the challenge's one-time pass in, next to `fp` and `isResend`. */
export const CHALLENGE_PASS_FIELD = 'challenge_pass';

/** Decision codes naming the puzzle; anything else is a slide. */
export const CaptchaDecisionCode = { slide: 3058, text: 3059, threeD: 3060, whirl: 99996 } as const;

export type CaptchaSubtype = 'slide' | 'text' | '3d' | 'whirl';

/** 3059 text, 3060 3d, 99996 whirl, anything else slide. */
export function captchaSubtype(code: unknown): CaptchaSubtype {
  switch (Number(code)) {
    case CaptchaDecisionCode.text:
      return 'text';
    case CaptchaDecisionCode.threeD:
      return '3d';
    case CaptchaDecisionCode.whirl:
      return 'whirl';
    default:
      return 'slide';
  }
}

export interface DecisionConf {
  /** The decision code; its subtype follows from it. */
  code: number;
  subtype: CaptchaSubtype;
  /** The server's challenge id, single use. */
  challenge_id: string;
  /** The action the challenge guards (e.g. the path); the pass is bound to it. */
  action?: string;
}

/**
 * Parses a decision configuration (a JSON string or an object). Returns undefined when it is missing
 * or malformed; the client then logs "wrong desision config!" (sic, the spec's text) and rejects.
 */
export function parseDecisionConf(value: unknown): DecisionConf | undefined {
  let raw: unknown = value;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { code, challenge_id, action } = raw as Record<string, unknown>;
  // A code is a number or a string of digits; null, '', true or [] would coerce to 0 or 1.
  const numeric = typeof code === 'number' || (typeof code === 'string' && /^\d+$/.test(code));
  if (typeof challenge_id !== 'string' || challenge_id === '' || !numeric || !Number.isFinite(Number(code)))
    return undefined;
  const conf: DecisionConf = { code: Number(code), subtype: captchaSubtype(code), challenge_id };
  if (typeof action === 'string') conf.action = action;
  return conf;
}

export const WRONG_DECISION_CONFIG = 'wrong desision config!';
