/**
 * `@portico/captcha-loader`: loads the challenge (captcha) script the passport server names in
 * `/vc/setting`, from its primary address or a backup, as a retryable state machine (spec §4).
 */
export {
  type ChallengeApi,
  type ChallengeResult,
  type ChallengeShowOptions,
  DEFAULT_GLOBAL_NAME,
  isChallengeApi,
} from './contract';
export type { Clock, DocumentLike, FetchLike, ScriptElementLike } from './environment';
export {
  type CandidateFailure,
  CaptchaLoadError,
  type CaptchaLoadErrorInit,
  type CaptchaLoadErrorType,
  isCaptchaLoadError,
} from './errors';
export {
  type CaptchaLoader,
  type CaptchaLoaderHooks,
  type CaptchaLoaderOptions,
  type ChallengeDecision,
  createCaptchaLoader,
  type FallbackEvent,
  type LoadEvent,
  type LoaderSnapshot,
  type ShowOverrides,
} from './loader';
export {
  type ChallengeProvider,
  type MountProviderOptions,
  mountProviderWidget,
  PROVIDER_SCRIPT_URLS,
  type ProviderWidget,
} from './provider-widget';
export { SCRIPT_ERROR_MESSAGE, timeoutMessage } from './script';
export { type ChallengeSettings, fetchChallengeSettings, type SettingsRequest } from './settings';
export { FAILED, LOADED, LOADING, type LoaderState, NOT_LOADED } from './states';
