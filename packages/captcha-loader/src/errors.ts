const BRAND = Symbol.for('portico.captcha-loader.CaptchaLoadError');

/**
 * What failed: `settings` — the `/vc/setting` request (after its one retry); `loadJSSDK` — every
 * script candidate (primary, then each backup), the name is the spec's; `provider` — a third-party
 * widget (Turnstile, hCaptcha, GeeTest): its script, or an error it reported.
 */
export type CaptchaLoadErrorType = 'settings' | 'loadJSSDK' | 'provider';

/** One candidate that did not load, in the order they were tried. */
export interface CandidateFailure {
  url: string;
  /** "LoadJSSDKMoreTan4000ms", "Failed to load SDK!" or why the script did not register itself. */
  message: string;
}

export interface CaptchaLoadErrorInit {
  type: CaptchaLoadErrorType;
  message: string;
  /** The last address tried (the settings URL or the last script candidate). */
  url: string;
  failures?: CandidateFailure[];
  cause?: unknown;
}

/**
 * The one error this package rejects with. For `loadJSSDK` the message is the last candidate's, exactly
 * as the spec words it, so monitors can group by it; the addresses are in `url` and `failures`.
 */
export class CaptchaLoadError extends Error {
  override readonly name = 'CaptchaLoadError';
  readonly type: CaptchaLoadErrorType;
  readonly url: string;
  readonly failures: readonly CandidateFailure[];
  /** A brand, so `isCaptchaLoadError` works across two copies of this package in one page. */
  readonly [BRAND] = true;

  constructor(init: CaptchaLoadErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.type = init.type;
    this.url = init.url;
    this.failures = init.failures ?? [];
  }
}

/** True for a `CaptchaLoadError` from any copy of this package. */
export function isCaptchaLoadError(value: unknown): value is CaptchaLoadError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}
