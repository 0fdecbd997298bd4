import type { Clock, DocumentLike } from './environment';
import { CaptchaLoadError } from './errors';
import { injectScript } from './script';

/** A third-party challenge named by the server's drawn puzzle (`provider`). */
export interface ChallengeProvider {
  name: 'turnstile' | 'hcaptcha' | 'geetest';
  /** The widget's public key (GeeTest: its captcha id). */
  site_key: string;
  /** `behind`: our puzzle and the widget both; `instead`: the widget alone. */
  mode: 'behind' | 'instead';
  /** The widget's script; default: the provider's documented address. */
  script_url?: string;
}

/** Each provider's documented widget script, rendered explicitly. */
export const PROVIDER_SCRIPT_URLS: Readonly<Record<ChallengeProvider['name'], string>> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
  hcaptcha: 'https://js.hcaptcha.com/1/api.js?render=explicit',
  geetest: 'https://static.geetest.com/v4/gt4.js',
};

/** A widget in the page, earning tokens (each single use) for the verify call's `provider_token`. */
export interface ProviderWidget {
  /** The next token the person earns; rejects with a `provider` CaptchaLoadError on a widget error. */
  token(): Promise<string>;
  /** After a spent or refused token: lets the person earn a fresh one. */
  reset(): void;
  remove(): void;
}

export interface MountProviderOptions {
  /** 'zh' or 'en' (anything starting with 'en' is English). */
  language: string;
  document: DocumentLike;
  clock: Clock;
  /** Ms the widget script gets. */
  timeout: number;
}

/** The documented explicit-render API Turnstile and hCaptcha share. */
interface RenderApi {
  render(container: unknown, params: Record<string, unknown>): string;
  reset(id: string): void;
  remove(id: string): void;
}
/** GeeTest v4's captcha object, as `initGeetest4` hands it over. */
interface GeetestCaptcha {
  appendTo(container: unknown): GeetestCaptcha;
  onSuccess(callback: () => void): GeetestCaptcha;
  onError(callback: (error: unknown) => void): GeetestCaptcha;
  getValidate(): Record<string, string> | false;
  reset(): void;
  destroy(): void;
}
type InitGeetest4 = (config: Record<string, unknown>, ready: (captcha: GeetestCaptcha) => void) => void;

/** One script per address and page: a second widget (the next challenge) reuses it. */
const loaded = new WeakMap<object, Map<string, Promise<void>>>();

function loadOnce(options: MountProviderOptions, url: string): Promise<void> {
  const key = options.document as object;
  const scripts = loaded.get(key) ?? new Map<string, Promise<void>>();
  loaded.set(key, scripts);
  let script = scripts.get(url);
  if (!script) {
    script = injectScript(options.document, options.clock, url, options.timeout);
    // A failure is forgotten, so the next challenge tries again.
    script.catch(() => scripts.delete(url));
    scripts.set(url, script);
  }
  return script;
}

const providerError = (provider: ChallengeProvider, url: string, message: string, cause?: unknown) =>
  new CaptchaLoadError({
    type: 'provider',
    message: `${provider.name}: ${message}`,
    url,
    failures: [{ url, message }],
    cause,
  });

/**
 * Loads the provider's widget script and renders the widget into `container` with its documented
 * explicit API: Turnstile `turnstile.render(el, {sitekey, callback, 'error-callback', language})`,
 * hCaptcha `hcaptcha.render(el, {sitekey, callback, 'error-callback', hl})`, GeeTest v4
 * `initGeetest4({captchaId, product, language}, …)` and `captcha.appendTo(el)`, whose token is the JSON
 * of `getValidate()`'s four fields. Rejects with a `provider` CaptchaLoadError when the script does not
 * load or does not register its global.
 */
export async function mountProviderWidget(
  container: unknown,
  provider: ChallengeProvider,
  options: MountProviderOptions,
): Promise<ProviderWidget> {
  const url = provider.script_url || PROVIDER_SCRIPT_URLS[provider.name];
  if (!url) throw providerError(provider, '', 'unknown provider');
  try {
    await loadOnce(options, url);
  } catch (error) {
    throw providerError(provider, url, (error as Error).message, error);
  }
  const english = options.language.toLowerCase().startsWith('en');
  const scope = (options.document.defaultView ?? {}) as Record<string, unknown>;

  // Tokens arrive by callback; `token()` waits for the next one.
  let pending: { resolve(token: string): void; reject(error: unknown): void } | undefined;
  let earned: { token: string } | { error: unknown } | undefined;
  const settle = (outcome: { token: string } | { error: unknown }) => {
    if (!pending) {
      earned = outcome;
      return;
    }
    const { resolve, reject } = pending;
    pending = undefined;
    if ('token' in outcome) resolve(outcome.token);
    else reject(outcome.error);
  };
  const failed = (detail: unknown) =>
    settle({
      error: providerError(provider, url, `the widget reported an error (${String(detail)})`, detail),
    });
  const widget = (reset: () => void, remove: () => void): ProviderWidget => ({
    token: () => {
      const ready = earned;
      earned = undefined;
      if (ready) return 'token' in ready ? Promise.resolve(ready.token) : Promise.reject(ready.error);
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
      });
    },
    reset: () => {
      earned = undefined;
      reset();
    },
    remove,
  });

  if (provider.name === 'geetest') {
    const init = scope.initGeetest4 as InitGeetest4 | undefined;
    if (typeof init !== 'function') throw providerError(provider, url, 'window.initGeetest4 is missing');
    const captcha = await new Promise<GeetestCaptcha>((resolve) =>
      init({ captchaId: provider.site_key, product: 'float', language: english ? 'eng' : 'zho' }, resolve),
    );
    captcha
      .appendTo(container)
      .onSuccess(() => {
        const fields = captcha.getValidate();
        if (fields) settle({ token: JSON.stringify(fields) });
        else failed('no validate result');
      })
      .onError(failed);
    return widget(
      () => captcha.reset(),
      () => captcha.destroy(),
    );
  }

  const api = scope[provider.name] as RenderApi | undefined;
  if (typeof api?.render !== 'function') {
    throw providerError(provider, url, `window.${provider.name}.render is missing`);
  }
  const id = api.render(container, {
    sitekey: provider.site_key,
    callback: (token: string) => settle({ token }),
    'error-callback': failed,
    // A token not yet handed over that outlives its life would only be refused: forget it.
    'expired-callback': () => {
      earned = undefined;
    },
    [provider.name === 'turnstile' ? 'language' : 'hl']:
      provider.name === 'turnstile' ? (english ? 'en' : 'zh-cn') : english ? 'en' : 'zh-CN',
  });
  return widget(
    () => api.reset(id),
    () => api.remove(id),
  );
}
