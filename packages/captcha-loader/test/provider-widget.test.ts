import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type ChallengeProvider,
  createCaptchaLoader,
  isCaptchaLoadError,
  mountProviderWidget,
  PROVIDER_SCRIPT_URLS,
} from '../src/index';
import { FakePage, fakeClock, fakeFetch, settle } from './fakes';

// Test doubles of the providers' documented browser APIs (window.turnstile, window.hcaptcha,
// window.initGeetest4), registered when the fake <script> "runs".

let page: FakePage;
const container = { id: 'widget-container' };

beforeEach(() => {
  vi.useFakeTimers();
  page = new FakePage();
});
afterEach(() => {
  vi.useRealTimers();
});

const options = (language = 'zh') => ({ language, document: page, clock: fakeClock(), timeout: 4000 });

/** A double of `turnstile`/`hcaptcha`: `render` keeps its params so the test can call back. */
function renderApi() {
  const rendered: Array<Record<string, unknown>> = [];
  const latest = () => {
    const params = rendered.at(-1);
    if (!params) throw new Error('nothing rendered yet');
    return params;
  };
  return {
    rendered,
    api: {
      render: vi.fn((_el: unknown, params: Record<string, unknown>) => {
        rendered.push(params);
        return `widget-${rendered.length}`;
      }),
      reset: vi.fn(),
      remove: vi.fn(),
    },
    /** What the widget calls when the person completes it. */
    complete: (token: string) => (latest().callback as (t: string) => void)(token),
    error: (code: string) => (latest()['error-callback'] as (c: string) => void)(code),
    expire: () => (latest()['expired-callback'] as () => void)(),
  };
}

/** Starts a mount and runs the script that registers `global` on the page. */
async function mounted(provider: ChallengeProvider, global: string, value: unknown, language = 'zh') {
  const mounting = mountProviderWidget(container, provider, options(language));
  mounting.catch(() => {}); // observed by the caller; keeps Node from reporting it early
  await settle();
  page.window[global] = value;
  await page.lastScript.loads(undefined);
  return mounting;
}

const turnstile: ChallengeProvider = {
  name: 'turnstile',
  site_key: '1x00000000000000000000AA',
  mode: 'instead',
};

describe('Turnstile', () => {
  it('loads the documented script, renders explicitly with the site key and language, and hands over each token once', async () => {
    const double = renderApi();
    const widget = await mounted(turnstile, 'turnstile', double.api);
    expect(page.sources).toEqual([PROVIDER_SCRIPT_URLS.turnstile]);
    expect(PROVIDER_SCRIPT_URLS.turnstile).toBe(
      'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
    );
    expect(double.api.render).toHaveBeenCalledWith(container, expect.any(Object));
    expect(double.rendered[0]).toMatchObject({ sitekey: turnstile.site_key, language: 'zh-cn' });

    const first = widget.token();
    double.complete('token-1');
    await expect(first).resolves.toBe('token-1');

    // Refused by the server: a fresh token is earned after a reset, never the spent one again.
    widget.reset();
    expect(double.api.reset).toHaveBeenCalledWith('widget-1');
    const second = widget.token();
    let settled = false;
    second.then(() => {
      settled = true;
    });
    await settle();
    expect(settled).toBe(false);
    double.complete('token-2');
    await expect(second).resolves.toBe('token-2');

    widget.remove();
    expect(double.api.remove).toHaveBeenCalledWith('widget-1');
  });

  it('keeps a token earned before anyone asked for it', async () => {
    const double = renderApi();
    const widget = await mounted(turnstile, 'turnstile', double.api);
    double.complete('early');
    await expect(widget.token()).resolves.toBe('early');
  });

  it('forgets a token that expired before it was asked for', async () => {
    const double = renderApi();
    const widget = await mounted(turnstile, 'turnstile', double.api);
    double.complete('stale');
    double.expire();
    const next = widget.token();
    double.complete('fresh');
    await expect(next).resolves.toBe('fresh');
  });

  it('turns the widget’s error-callback into a provider error', async () => {
    const double = renderApi();
    const widget = await mounted(turnstile, 'turnstile', double.api, 'en');
    expect(double.rendered[0]).toMatchObject({ language: 'en' });
    const token = widget.token();
    double.error('110200');
    const error = await token.catch((e: unknown) => e);
    expect(isCaptchaLoadError(error) && error.type).toBe('provider');
    expect((error as Error).message).toMatch(/turnstile: the widget reported an error \(110200\)/);
  });

  it('rejects with a provider error naming the address when the script fails, and the next mount tries again', async () => {
    const url = 'https://self-hosted.example/turnstile.js';
    const mounting = mountProviderWidget(container, { ...turnstile, script_url: url }, options());
    mounting.catch(() => {});
    await settle();
    await page.lastScript.fails();
    const error = await mounting.catch((e: unknown) => e);
    expect(error).toMatchObject({
      type: 'provider',
      url,
      failures: [{ url, message: 'Failed to load SDK!' }],
    });
    expect(page.lastScript.removed).toBe(true);

    const double = renderApi();
    const again = mountProviderWidget(container, { ...turnstile, script_url: url }, options());
    await settle();
    expect(page.sources).toEqual([url, url]);
    page.window.turnstile = double.api;
    await page.lastScript.loads(undefined);
    await expect(again).resolves.toBeDefined();
  });

  it('times out a script that never answers', async () => {
    const mounting = mountProviderWidget(container, turnstile, options());
    mounting.catch(() => {});
    await vi.advanceTimersByTimeAsync(4000);
    await expect(mounting).rejects.toMatchObject({ type: 'provider', message: /LoadJSSDKMoreTan4000ms/ });
  });

  it('rejects when the script loads but registers no render function', async () => {
    await expect(mounted(turnstile, 'turnstile', {})).rejects.toMatchObject({
      type: 'provider',
      message: 'turnstile: window.turnstile.render is missing',
    });
  });

  it('loads the script once per page for later widgets', async () => {
    const double = renderApi();
    await mounted(turnstile, 'turnstile', double.api);
    await mountProviderWidget(container, turnstile, options());
    expect(page.scripts).toHaveLength(1);
    expect(double.api.render).toHaveBeenCalledTimes(2);
  });
});

describe('hCaptcha', () => {
  it('renders with its site key and `hl`, from the address the server names', async () => {
    const double = renderApi();
    const url = 'http://127.0.0.1:9/1/api.js?render=explicit';
    const provider: ChallengeProvider = {
      name: 'hcaptcha',
      site_key: 'site',
      mode: 'behind',
      script_url: url,
    };
    const widget = await mounted(provider, 'hcaptcha', double.api, 'en');
    expect(page.sources).toEqual([url]);
    expect(double.rendered[0]).toMatchObject({ sitekey: 'site', hl: 'en' });
    const token = widget.token();
    double.complete('P1_token');
    await expect(token).resolves.toBe('P1_token');
  });
});

describe('GeeTest v4', () => {
  it('initialises with the captcha id, appends the widget and hands over getValidate()’s fields as JSON', async () => {
    const fields = { lot_number: 'lot', captcha_output: 'out', pass_token: 'pass', gen_time: '1700000000' };
    let success: () => void = () => {};
    const captcha = {
      appendTo: vi.fn(() => captcha),
      onSuccess: vi.fn((callback: () => void) => {
        success = callback;
        return captcha;
      }),
      onError: vi.fn(() => captcha),
      getValidate: vi.fn(() => fields),
      reset: vi.fn(),
      destroy: vi.fn(),
    };
    const init = vi.fn((_config: unknown, ready: (c: typeof captcha) => void) => ready(captcha));
    const widget = await mounted(
      { name: 'geetest', site_key: 'gt-id', mode: 'behind' },
      'initGeetest4',
      init,
    );
    expect(page.sources).toEqual(['https://static.geetest.com/v4/gt4.js']);
    expect(init).toHaveBeenCalledWith(
      { captchaId: 'gt-id', product: 'float', language: 'zho' },
      expect.any(Function),
    );
    expect(captcha.appendTo).toHaveBeenCalledWith(container);
    const token = widget.token();
    success();
    expect(JSON.parse(await token)).toEqual(fields);
    widget.reset();
    expect(captcha.reset).toHaveBeenCalled();
  });
});

describe('through the loader', () => {
  it('reports a widget whose script fails to onLoadError, as a provider error', async () => {
    const onLoadError = vi.fn();
    const loader = createCaptchaLoader({
      aid: 1128,
      document: page,
      fetch: fakeFetch(),
      clock: fakeClock(),
      onLoadError,
    });
    const mounting = loader
      .showOptions({ code: 3058, challenge_id: 'ch_1' })
      .mountProvider?.(container, turnstile);
    mounting?.catch(() => {});
    await settle();
    await page.lastScript.fails();
    await expect(mounting).rejects.toMatchObject({ type: 'provider' });
    expect(onLoadError).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'provider', url: PROVIDER_SCRIPT_URLS.turnstile }),
    );
  });

  it('hands the script a mountProvider that uses the loader’s page, clock and language', async () => {
    const loader = createCaptchaLoader({
      aid: 1128,
      language: 'en',
      document: page,
      fetch: fakeFetch(),
      clock: fakeClock(),
    });
    const { mountProvider } = loader.showOptions({ code: 3058, challenge_id: 'ch_1' });
    const double = renderApi();
    const mounting = mountProvider?.(container, turnstile);
    await settle();
    page.window.turnstile = double.api;
    await page.lastScript.loads(undefined);
    await mounting;
    expect(double.rendered[0]).toMatchObject({ sitekey: turnstile.site_key, language: 'en' });
  });
});
