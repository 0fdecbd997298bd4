import { type CaptchaShowMode, captchaSubtype, DEFAULTS, TIMEOUTS } from '@portico/account-sdk/protocol';
import {
  type ChallengeApi,
  type ChallengeResult,
  type ChallengeShowOptions,
  DEFAULT_GLOBAL_NAME,
  isChallengeApi,
} from './contract';
import { type Clock, type DocumentLike, type FetchLike, systemClock } from './environment';
import { type CandidateFailure, CaptchaLoadError } from './errors';
import { mountProviderWidget } from './provider-widget';
import { injectScript } from './script';
import { type ChallengeSettings, fetchChallengeSettings, resolveUrl } from './settings';
import { FAILED, LOADED, LOADING, type LoaderState, NOT_LOADED } from './states';

/** Passed to `onFallback` each time a candidate fails and the next one is tried. */
export interface FallbackEvent {
  /** The candidate that failed. */
  from: string;
  /** The candidate tried next. */
  to: string;
  /** Why `from` failed: "LoadJSSDKMoreTan4000ms", "Failed to load SDK!", or a registration problem. */
  message: string;
  /** Milliseconds since this load started (settings included). */
  elapsedMs: number;
}

/** Passed to `onLoad` when a script has loaded and registered itself. */
export interface LoadEvent {
  url: string;
  /** The settings' version, else the script's own. */
  version?: string;
  /** Milliseconds since this load started (settings included). */
  elapsedMs: number;
  /** How many candidates failed before this one. */
  fallbacks: number;
}

export interface CaptchaLoaderHooks {
  /**
   * Called once per failed load with the error `load()` rejects with, and when a third-party widget's
   * script fails (type `provider`). Plug the monitor in here.
   */
  onLoadError?: (error: CaptchaLoadError) => void;
  /** Called each time a candidate fails and the next is tried. */
  onFallback?: (event: FallbackEvent) => void;
  /** Called when the challenge script is ready. */
  onLoad?: (event: LoadEvent) => void;
}

export interface CaptchaLoaderOptions extends CaptchaLoaderHooks {
  /** The app id, sent as `aid` to `/vc/setting` and handed to the script. Required. */
  aid: string | number;
  /** Base URL of the passport server ('' = the page's origin). Default ''. */
  baseUrl?: string;
  /** Sent as `language` to `/vc/setting` and handed to the script. Default 'zh'. */
  language?: string;
  /** Default show mode of the overlay. Default 'mask'. */
  showMode?: CaptchaShowMode;
  /** Default side-slide behaviour of the slide puzzle. Default false. */
  sideSlide?: boolean;
  /** The global the script registers on. Default 'PorticoChallenge' (`window.PorticoChallenge`). */
  globalName?: string;
  /** Per script candidate, and for a third-party widget's script, in ms. Default 4000. */
  scriptTimeout?: number;
  /** Per settings attempt, in ms. Default 20000. */
  settingsTimeout?: number;
  /** Extra settings attempts after the first. Default 1. */
  settingsRetries?: number;
  /** The document to add `<script>` to. Default: the global `document`, looked up at `load()`. */
  document?: DocumentLike;
  /** Default: the global `fetch`, looked up at `load()`. */
  fetch?: FetchLike;
  /** Time and timers. Default: `Date.now` and the global `setTimeout`/`clearTimeout`, looked up per call. */
  clock?: Clock;
}

/** What `getSnapshot()` returns; a new object on each transition, so React can compare by identity. */
export interface LoaderSnapshot {
  readonly state: LoaderState;
  /** Set in the FAILED state. */
  readonly error?: CaptchaLoadError;
}

/** A decision (`verify_center_decision_conf`, parsed) naming the challenge to show. */
export interface ChallengeDecision {
  code: number | string;
  challenge_id: string;
  action?: string;
}

/** Per-call overrides for `show`. */
export interface ShowOverrides {
  fp?: string;
  showMode?: CaptchaShowMode;
  sideSlide?: boolean;
  language?: string;
}

export interface CaptchaLoader {
  /** Loads the script once; concurrent callers share one load; after FAILED a new call starts over. */
  load(): Promise<ChallengeApi>;
  /** Loads if needed, then shows the challenge the decision names. */
  show(decision: ChallengeDecision, overrides?: ShowOverrides): Promise<ChallengeResult>;
  /** The options `show` hands to the script for this decision. */
  showOptions(decision: ChallengeDecision, overrides?: ShowOverrides): ChallengeShowOptions;
  getState(): LoaderState;
  getSnapshot(): LoaderSnapshot;
  /** Calls `listener` after every transition; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/**
 * Runs a hook. A throwing hook never breaks the load: its error goes to the page's `reportError`
 * (as an uncaught error would, but without unwinding the loader), or is rethrown in a microtask.
 */
function callHook<T>(hook: ((event: T) => void) | undefined, event: T): void {
  if (!hook) return;
  try {
    hook(event);
  } catch (error) {
    const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
    if (typeof report === 'function') report(error);
    else
      queueMicrotask(() => {
        throw error;
      });
  }
}

function wiringError(what: string, fix: string): TypeError {
  return new TypeError(`@portico/captcha-loader: ${what}. ${fix}`);
}

export function createCaptchaLoader(options: CaptchaLoaderOptions): CaptchaLoader {
  if (options.aid === undefined || options.aid === null || options.aid === '') {
    throw wiringError('`aid` is missing', 'Pass your app id: createCaptchaLoader({ aid: 1234 }).');
  }
  const aid = String(options.aid);
  const baseUrl = options.baseUrl ?? '';
  const language = options.language ?? DEFAULTS.language;
  const globalName = options.globalName ?? DEFAULT_GLOBAL_NAME;
  const scriptTimeout = options.scriptTimeout ?? TIMEOUTS.captchaScriptLoad;
  const clock = options.clock ?? systemClock;

  let snapshot: LoaderSnapshot = Object.freeze({ state: NOT_LOADED });
  let inFlight: Promise<ChallengeApi> | undefined;
  let api: ChallengeApi | undefined;
  const listeners = new Set<() => void>();

  const transition = (state: LoaderState, error?: CaptchaLoadError) => {
    snapshot = Object.freeze(error ? { state, error } : { state });
    for (const listener of [...listeners]) listener();
  };

  const environment = (): { document: DocumentLike; fetch: FetchLike } => {
    const document = options.document ?? (globalThis as { document?: DocumentLike }).document;
    if (!document) {
      throw wiringError('no `document` to add the script to', 'Call load() in a browser or pass `document`.');
    }
    const globalFetch = (globalThis as { fetch?: FetchLike }).fetch;
    const fetch = options.fetch ?? (globalFetch ? (url, init) => globalFetch(url, init) : undefined);
    if (!fetch) throw wiringError('no `fetch`', 'Pass `fetch` in the options.');
    return { document, fetch };
  };

  const registered = (document: DocumentLike): ChallengeApi | string => {
    const scope = document.defaultView as Record<string, unknown> | null;
    const value = scope?.[globalName];
    return isChallengeApi(value)
      ? value
      : `The script loaded but did not register window.${globalName} with a show() function`;
  };

  const run = async (document: DocumentLike, fetch: FetchLike): Promise<ChallengeApi> => {
    const started = clock.now();
    const elapsed = () => clock.now() - started;
    const settings: ChallengeSettings = await fetchChallengeSettings({
      baseUrl,
      aid,
      language,
      fetch,
      clock,
      ...(options.settingsTimeout === undefined ? {} : { timeout: options.settingsTimeout }),
      ...(options.settingsRetries === undefined ? {} : { retries: options.settingsRetries }),
    });
    const candidates = [settings.sdk_url, ...settings.backup_urls].map((url) => resolveUrl(baseUrl, url));
    const failures: CandidateFailure[] = [];
    for (const [index, url] of candidates.entries()) {
      let message: string;
      let cause: unknown;
      try {
        await injectScript(document, clock, url, scriptTimeout);
        const found = registered(document);
        if (typeof found !== 'string') {
          const version = settings.version ?? found.version;
          callHook(options.onLoad, {
            url,
            elapsedMs: elapsed(),
            fallbacks: index,
            ...(version === undefined ? {} : { version }),
          });
          return found;
        }
        message = found;
      } catch (error) {
        message = (error as Error).message;
        cause = error;
      }
      failures.push({ url, message });
      const next = candidates[index + 1];
      if (next === undefined) {
        throw new CaptchaLoadError({ type: 'loadJSSDK', message, url, failures, cause });
      }
      callHook(options.onFallback, { from: url, to: next, message, elapsedMs: elapsed() });
    }
    // Unreachable: the candidate list always holds the primary.
    throw new CaptchaLoadError({ type: 'loadJSSDK', message: 'No script address', url: '', failures });
  };

  const load = (): Promise<ChallengeApi> => {
    if (api) return Promise.resolve(api);
    if (inFlight) return inFlight;
    let env: { document: DocumentLike; fetch: FetchLike };
    try {
      env = environment();
    } catch (error) {
      return Promise.reject(error);
    }
    transition(LOADING);
    const current = run(env.document, env.fetch).then(
      (loaded) => {
        api = loaded;
        inFlight = undefined;
        transition(LOADED);
        return loaded;
      },
      (error: CaptchaLoadError) => {
        inFlight = undefined;
        transition(FAILED, error);
        callHook(options.onLoadError, error);
        throw error;
      },
    );
    inFlight = current;
    return current;
  };

  const showOptions = (decision: ChallengeDecision, overrides: ShowOverrides = {}): ChallengeShowOptions => {
    const shown: ChallengeShowOptions = {
      subtype: captchaSubtype(decision.code),
      code: Number(decision.code),
      challengeId: decision.challenge_id,
      showMode: overrides.showMode ?? options.showMode ?? DEFAULTS.captchaShowMode,
      sideSlide: overrides.sideSlide ?? options.sideSlide ?? DEFAULTS.captchaSideSlide,
      language: overrides.language ?? language,
      aid,
      host: baseUrl,
      // A widget that cannot run is a load failure like the script's: onLoadError hears of it too.
      mountProvider: (container, provider) =>
        mountProviderWidget(container, provider, {
          language: shown.language,
          document: environment().document,
          clock,
          timeout: scriptTimeout,
        }).catch((error: CaptchaLoadError) => {
          callHook(options.onLoadError, error);
          throw error;
        }),
    };
    if (decision.action !== undefined) shown.action = decision.action;
    if (overrides.fp !== undefined) shown.fp = overrides.fp;
    return shown;
  };

  return {
    load,
    showOptions,
    async show(decision, overrides) {
      const loaded = await load();
      return loaded.show(showOptions(decision, overrides));
    },
    getState: () => snapshot.state,
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
