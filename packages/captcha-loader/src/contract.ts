import type { CaptchaShowMode, CaptchaSubtype } from '@portico/account-sdk/protocol';
import type { ChallengeProvider, ProviderWidget } from './provider-widget';

/**
 * The contract between this loader and the challenge script the server serves. The script, when it
 * runs, assigns an object with a `show` function to `window[globalName]` (default
 * `window.PorticoChallenge`) synchronously, before its `load` event fires; `load()` resolves with it.
 */
export const DEFAULT_GLOBAL_NAME = 'PorticoChallenge';

/** What the loader hands to `show`; all fields are filled in. */
export interface ChallengeShowOptions {
  /** The puzzle kind, from the decision code: 3059 text, 3060 3d, 99996 whirl, else slide. */
  subtype: CaptchaSubtype;
  /** The decision code from `verify_center_decision_conf`. */
  code: number;
  /** The server's challenge id from the decision, single use. */
  challengeId: string;
  /** The action the challenge guards, when the decision names one; the pass is bound to it. */
  action?: string;
  /** The device fingerprint (`verifyFp`) the pass is bound to, when the caller has one. */
  fp?: string;
  /** How the overlay is shown. Default 'mask'. */
  showMode: CaptchaShowMode;
  /** Whether the slide puzzle slides in from the side. Default false. */
  sideSlide: boolean;
  /** UI language ('zh' or 'en'). Default 'zh'. */
  language: string;
  /** The app id. */
  aid: string;
  /** Base URL of the challenge service ('' means the page's own origin); the script calls `/vc/…` there. */
  host: string;
  /**
   * Renders the third-party widget a drawn puzzle names (`provider`) into `container`; the script sends
   * its tokens as `provider_token`. Rejects (a `provider` CaptchaLoadError) when the widget cannot run.
   */
  mountProvider?: (container: unknown, provider: ChallengeProvider) => Promise<ProviderWidget>;
}

/**
 * How a shown challenge ends: solved (the caller resends the original request with `fp` and
 * `isResend`) or closed by the person (the caller rejects with an empty description). A failure
 * inside the script (network, server) rejects the promise instead.
 */
export type ChallengeResult = { status: 'passed'; challengeId: string } | { status: 'closed' };

/** What the challenge script registers on its global. */
export interface ChallengeApi {
  show(options: ChallengeShowOptions): Promise<ChallengeResult>;
  /** The script's own version, if it reports one. */
  version?: string;
}

/** True when `value` fulfils `ChallengeApi` well enough to call. */
export function isChallengeApi(value: unknown): value is ChallengeApi {
  return typeof value === 'object' && value !== null && typeof (value as ChallengeApi).show === 'function';
}
