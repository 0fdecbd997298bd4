import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CaptchaLoadError,
  type CaptchaLoaderOptions,
  createCaptchaLoader,
  FAILED,
  isCaptchaLoadError,
  LOADED,
  LOADING,
  NOT_LOADED,
} from '../src/index';
import { FakePage, fakeClock, fakeFetch, SETTINGS, settle, success } from './fakes';

let page: FakePage;

beforeEach(() => {
  vi.useFakeTimers();
  page = new FakePage();
});
afterEach(() => {
  vi.useRealTimers();
});

function loaderWith(overrides: Partial<CaptchaLoaderOptions> = {}) {
  return createCaptchaLoader({
    aid: 1128,
    document: page,
    fetch: fakeFetch(),
    clock: fakeClock(),
    ...overrides,
  });
}

/** Starts a load and lets the settings answer arrive, so the primary script is in the page. */
async function startLoad(loader: ReturnType<typeof loaderWith>) {
  const loading = loader.load();
  loading.catch(() => {}); // observed later by the test; keeps Node from reporting it early
  await settle();
  return { loading };
}

describe('the states', () => {
  it('are numbered 0 not loaded, 1 loading, 2 loaded, 3 failed', () => {
    expect([NOT_LOADED, LOADING, LOADED, FAILED]).toEqual([0, 1, 2, 3]);
  });

  it('start at NOT_LOADED and touch nothing before load() is called', () => {
    const fetch = fakeFetch();
    const loader = loaderWith({ fetch });
    expect(loader.getState()).toBe(NOT_LOADED);
    expect(fetch).not.toHaveBeenCalled();
    expect(page.scripts).toHaveLength(0);
  });

  it('are LOADING while the settings are fetched and while the script loads', async () => {
    const loader = loaderWith({ fetch: fakeFetch('hang') });
    loader.load().catch(() => {});
    expect(loader.getState()).toBe(LOADING);

    const loader2 = loaderWith();
    await startLoad(loader2);
    expect(page.scripts).toHaveLength(1);
    expect(loader2.getState()).toBe(LOADING);
  });

  it('become LOADED when the script loads and registers itself, and load() resolves with its API', async () => {
    const loader = loaderWith();
    const { loading } = await startLoad(loader);
    await page.lastScript.loads();
    await expect(loading).resolves.toBe(page.api);
    expect(loader.getState()).toBe(LOADED);
  });

  it('become FAILED when every candidate fails', async () => {
    const loader = loaderWith();
    const { loading } = await startLoad(loader);
    await page.lastScript.fails();
    await settle();
    await page.lastScript.fails();
    await expect(loading).rejects.toThrow(CaptchaLoadError);
    expect(loader.getState()).toBe(FAILED);
  });

  it('are published to subscribers, with a new snapshot per transition that carries the failure', async () => {
    const loader = loaderWith({ fetch: fakeFetch('network') });
    const seen: unknown[] = [];
    const unsubscribe = loader.subscribe(() => seen.push(loader.getSnapshot()));
    const first = loader.getSnapshot();
    expect(loader.getSnapshot()).toBe(first);

    await expect(loader.load()).rejects.toThrow(CaptchaLoadError);
    expect(seen).toEqual([{ state: LOADING }, { state: FAILED, error: expect.any(CaptchaLoadError) }]);
    expect(loader.getSnapshot()).not.toBe(first);

    unsubscribe();
    loader.load().catch(() => {});
    expect(seen).toHaveLength(2);
  });
});

describe('the settings', () => {
  it('are fetched from /vc/setting on the base URL with aid and language', async () => {
    const fetch = fakeFetch();
    const loader = loaderWith({ fetch, baseUrl: 'https://passport.example/', language: 'en' });
    await startLoad(loader);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]?.[0]).toBe('https://passport.example/vc/setting?aid=1128&language=en');
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ method: 'GET', credentials: 'include' });
  });

  it('ask in zh when no language is given', async () => {
    const fetch = fakeFetch();
    await startLoad(loaderWith({ fetch }));
    expect(fetch.mock.calls[0]?.[0]).toBe('/vc/setting?aid=1128&language=zh');
  });

  it('name the primary script first and the backups after it; paths resolve against the base URL', async () => {
    const fetch = fakeFetch(success({ sdk_url: '/vc/sdk/primary', backup_urls: ['/vc/sdk/backup'] }));
    const loader = loaderWith({ fetch, baseUrl: 'https://passport.example' });
    await startLoad(loader);
    await page.lastScript.fails();
    await settle();
    expect(page.sources).toEqual([
      'https://passport.example/vc/sdk/primary',
      'https://passport.example/vc/sdk/backup',
    ]);
  });

  it('are retried exactly once after a failure, and a good second answer is used', async () => {
    const fetch = fakeFetch('network', success(SETTINGS));
    const loader = loaderWith({ fetch });
    await startLoad(loader);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(page.sources).toEqual([SETTINGS.sdk_url]);
  });

  it('fail the load with a settings error after the second failure, without a third request', async () => {
    const fetch = fakeFetch('network');
    const loader = loaderWith({ fetch });
    const error = await loader.load().catch((e: unknown) => e);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(error).toBeInstanceOf(CaptchaLoadError);
    expect(error).toMatchObject({ type: 'settings', url: '/vc/setting?aid=1128&language=zh' });
    expect((error as Error).message).toContain('Failed to fetch');
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(loader.getState()).toBe(FAILED);
    expect(page.scripts).toHaveLength(0);
  });

  it('count an HTTP error, a failure envelope and a missing sdk_url as failures', async () => {
    const answers = [
      { ok: false, status: 503, json: async () => ({}) },
      { ok: true, status: 200, json: async () => ({ message: 'error', data: { error_code: 1008 } }) },
      success({ backup_urls: [] }),
    ];
    for (const answer of answers) {
      const error = await loaderWith({ fetch: fakeFetch(answer) })
        .load()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ type: 'settings' });
    }
  });

  it('time out after 20000 ms per attempt: two attempts, then a settings error', async () => {
    const fetch = fakeFetch('hang');
    const loader = loaderWith({ fetch });
    const loading = loader.load();
    loading.catch(() => {});

    await vi.advanceTimersByTimeAsync(19_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(loader.getState()).toBe(LOADING);
    await vi.advanceTimersByTimeAsync(20_000);

    await expect(loading).rejects.toMatchObject({
      type: 'settings',
      message: expect.stringContaining('20000 ms'),
    });
    expect(loader.getState()).toBe(FAILED);
  });
});

describe('each script candidate', () => {
  it('is added to the head as an async script', async () => {
    await startLoad(loaderWith());
    expect(page.lastScript).toMatchObject({ src: SETTINGS.sdk_url, async: true });
  });

  it('gets 4000 ms: at 3999 ms it is still waited for, at 4000 ms it fails with "LoadJSSDKMoreTan4000ms"', async () => {
    const onFallback = vi.fn();
    await startLoad(loaderWith({ onFallback }));
    await vi.advanceTimersByTimeAsync(3999);
    expect(page.scripts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(onFallback).toHaveBeenCalledWith(expect.objectContaining({ message: 'LoadJSSDKMoreTan4000ms' }));
    expect(page.scripts[0]?.removed).toBe(true);
  });

  it('fails with "Failed to load SDK!" on a script error event', async () => {
    const onFallback = vi.fn();
    await startLoad(loaderWith({ onFallback }));
    await page.lastScript.fails();
    expect(onFallback).toHaveBeenCalledWith(expect.objectContaining({ message: 'Failed to load SDK!' }));
  });

  it('fails when it loads but does not register the global the loader names', async () => {
    const loader = loaderWith({ fetch: fakeFetch(success({ sdk_url: '/only.js', backup_urls: [] })) });
    const { loading } = await startLoad(loader);
    await page.lastScript.loads({ not: 'an api' });
    await expect(loading).rejects.toMatchObject({
      type: 'loadJSSDK',
      message: 'The script loaded but did not register window.PorticoChallenge with a show() function',
    });
  });

  it('is looked up under a custom global name when one is given', async () => {
    page = new FakePage('MyChallenge');
    const { loading } = await startLoad(loaderWith({ globalName: 'MyChallenge' }));
    await page.lastScript.loads();
    await expect(loading).resolves.toBe(page.api);
  });
});

describe('the fallback to the backup', () => {
  it('tries the backup after the primary times out, and loads from it', async () => {
    const loader = loaderWith();
    const { loading } = await startLoad(loader);
    await vi.advanceTimersByTimeAsync(4000);
    expect(page.sources).toEqual([SETTINGS.sdk_url, ...SETTINGS.backup_urls]);
    await page.lastScript.loads();
    await expect(loading).resolves.toBe(page.api);
    expect(loader.getState()).toBe(LOADED);
  });

  it('tries the backup after a script error on the primary', async () => {
    const { loading } = await startLoad(loaderWith());
    await page.lastScript.fails();
    expect(page.sources).toEqual([SETTINGS.sdk_url, ...SETTINGS.backup_urls]);
    await page.lastScript.loads();
    await expect(loading).resolves.toBe(page.api);
  });

  it('rejects with a loadJSSDK error carrying the last message when both candidates fail', async () => {
    const { loading } = await startLoad(loaderWith());
    await page.lastScript.fails();
    await vi.advanceTimersByTimeAsync(4000);
    const error = await loading.catch((e: unknown) => e);
    expect(isCaptchaLoadError(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'CaptchaLoadError',
      type: 'loadJSSDK',
      message: 'LoadJSSDKMoreTan4000ms',
      url: SETTINGS.backup_urls[0],
      failures: [
        { url: SETTINGS.sdk_url, message: 'Failed to load SDK!' },
        { url: SETTINGS.backup_urls[0], message: 'LoadJSSDKMoreTan4000ms' },
      ],
    });
  });

  it('tries every backup in order', async () => {
    const backups = ['/b1.js', '/b2.js', '/b3.js'];
    const { loading } = await startLoad(
      loaderWith({ fetch: fakeFetch(success({ sdk_url: '/p.js', backup_urls: backups })) }),
    );
    for (let i = 0; i < 3; i++) await page.lastScript.fails();
    await page.lastScript.loads();
    await expect(loading).resolves.toBe(page.api);
    expect(page.sources).toEqual(['/p.js', ...backups]);
  });
});

describe('a script that arrives after its timeout', () => {
  it('does not flip the state while the backup is loading', async () => {
    const loader = loaderWith();
    await startLoad(loader);
    const primary = page.lastScript;
    await vi.advanceTimersByTimeAsync(4000);
    await primary.loads();
    await settle();
    expect(loader.getState()).toBe(LOADING);
  });

  it('does not flip FAILED to LOADED', async () => {
    const loader = loaderWith();
    const { loading } = await startLoad(loader);
    const primary = page.lastScript;
    await vi.advanceTimersByTimeAsync(4000);
    await page.lastScript.fails();
    await expect(loading).rejects.toThrow('Failed to load SDK!');
    await primary.loads();
    await settle();
    expect(loader.getState()).toBe(FAILED);
  });
});

describe('concurrent callers', () => {
  it('share one load: one settings request, one script element, one promise', async () => {
    const fetch = fakeFetch();
    const loader = loaderWith({ fetch });
    const first = loader.load();
    const second = loader.load();
    expect(second).toBe(first);
    await settle();
    const third = loader.load();
    expect(third).toBe(first);
    await page.lastScript.loads();
    await expect(Promise.all([first, second, third])).resolves.toEqual([page.api, page.api, page.api]);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(page.scripts).toHaveLength(1);
  });

  it('share one failure too', async () => {
    const loader = loaderWith({ fetch: fakeFetch('network') });
    const results = await Promise.allSettled([loader.load(), loader.load()]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toBe((results[1] as PromiseRejectedResult).reason);
  });

  it('after LOADED get the loaded API at once, with no new request or script', async () => {
    const fetch = fakeFetch();
    const loader = loaderWith({ fetch });
    const { loading } = await startLoad(loader);
    await page.lastScript.loads();
    await loading;
    await expect(loader.load()).resolves.toBe(page.api);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(page.scripts).toHaveLength(1);
  });
});

describe('a retry after failure', () => {
  it('starts over: a new settings request and a new script, and can reach LOADED', async () => {
    const loader = loaderWith({ fetch: fakeFetch(success({ sdk_url: '/p.js', backup_urls: [] })) });
    const { loading: first } = await startLoad(loader);
    await page.lastScript.fails();
    await expect(first).rejects.toThrow('Failed to load SDK!');
    expect(loader.getState()).toBe(FAILED);

    const { loading: second } = await startLoad(loader);
    expect(loader.getState()).toBe(LOADING);
    expect(page.scripts).toHaveLength(2);
    await page.lastScript.loads();
    await expect(second).resolves.toBe(page.api);
    expect(loader.getState()).toBe(LOADED);
  });

  it('fetches the settings again', async () => {
    const fetch = fakeFetch('network', 'network', success(SETTINGS));
    const loader = loaderWith({ fetch });
    await expect(loader.load()).rejects.toMatchObject({ type: 'settings' });
    await startLoad(loader);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(page.scripts).toHaveLength(1);
  });
});

describe('the hooks', () => {
  it('onLoadError is called once per failed load, with the error load() rejects with', async () => {
    const onLoadError = vi.fn();
    const { loading } = await startLoad(loaderWith({ onLoadError }));
    await page.lastScript.fails();
    await page.lastScript.fails();
    const error = await loading.catch((e: unknown) => e);
    expect(onLoadError).toHaveBeenCalledTimes(1);
    expect(onLoadError).toHaveBeenCalledWith(error);
  });

  it('onLoadError hears about settings failures too', async () => {
    const onLoadError = vi.fn();
    await loaderWith({ onLoadError, fetch: fakeFetch('network') })
      .load()
      .catch(() => {});
    expect(onLoadError).toHaveBeenCalledWith(expect.objectContaining({ type: 'settings' }));
  });

  it('onFallback is called for each fallback with from, to, message and the time taken', async () => {
    const onFallback = vi.fn();
    const { loading } = await startLoad(loaderWith({ onFallback }));
    await vi.advanceTimersByTimeAsync(4000);
    await page.lastScript.fails();
    await loading.catch(() => {});
    expect(onFallback).toHaveBeenCalledTimes(1);
    expect(onFallback).toHaveBeenCalledWith({
      from: SETTINGS.sdk_url,
      to: SETTINGS.backup_urls[0],
      message: 'LoadJSSDKMoreTan4000ms',
      elapsedMs: 4000,
    });
  });

  it('onLoad is called with the address, version, time taken and fallbacks', async () => {
    const onLoad = vi.fn();
    const { loading } = await startLoad(loaderWith({ onLoad }));
    await page.lastScript.fails();
    await vi.advanceTimersByTimeAsync(250);
    await page.lastScript.loads();
    await loading;
    expect(onLoad).toHaveBeenCalledWith({
      url: SETTINGS.backup_urls[0],
      version: '1.0.0',
      elapsedMs: 250,
      fallbacks: 1,
    });
  });

  it("a throwing hook does not break the load; its error goes to the page's reportError", async () => {
    const boom = new Error('monitor is down');
    const reportError = vi.fn();
    vi.stubGlobal('reportError', reportError);
    try {
      const loader = loaderWith({
        onFallback: () => {
          throw boom;
        },
      });
      const { loading } = await startLoad(loader);
      await page.lastScript.fails();
      await page.lastScript.loads();
      await expect(loading).resolves.toBe(page.api);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(reportError).toHaveBeenCalledWith(boom);
  });
});

describe('show', () => {
  const decision = { code: 3058, challenge_id: 'ch_1', action: '/passport/web/user/login/' };

  it('loads the script, then hands it the decision with mask mode and no side slide by default', async () => {
    const loader = loaderWith({ baseUrl: 'https://passport.example' });
    const showing = loader.show(decision, { fp: 'verify_abc' });
    await settle();
    await page.lastScript.loads();
    await expect(showing).resolves.toEqual({ status: 'passed', challengeId: 'ch_1' });
    expect(page.api.show).toHaveBeenCalledWith({
      subtype: 'slide',
      code: 3058,
      challengeId: 'ch_1',
      action: '/passport/web/user/login/',
      fp: 'verify_abc',
      showMode: 'mask',
      sideSlide: false,
      language: 'zh',
      aid: '1128',
      host: 'https://passport.example',
      mountProvider: expect.any(Function),
    });
  });

  it('chooses the subtype from the decision code: 3059 text, 3060 3d, 99996 whirl, anything else slide', () => {
    const loader = loaderWith();
    const subtype = (code: number | string) => loader.showOptions({ code, challenge_id: 'x' }).subtype;
    expect([subtype(3059), subtype('3060'), subtype(99996), subtype(3058), subtype(1)]).toEqual([
      'text',
      '3d',
      'whirl',
      'slide',
      'slide',
    ]);
  });

  it('carries the loader-wide show mode and side slide, and per-call overrides win', () => {
    const loader = loaderWith({ showMode: 'popup', sideSlide: true, language: 'en' });
    expect(loader.showOptions(decision)).toMatchObject({
      showMode: 'popup',
      sideSlide: true,
      language: 'en',
    });
    expect(
      loader.showOptions(decision, { showMode: 'embed', sideSlide: false, language: 'zh' }),
    ).toMatchObject({
      showMode: 'embed',
      sideSlide: false,
      language: 'zh',
    });
  });

  it('rejects with the load error when the script cannot be loaded', async () => {
    const loader = loaderWith({ fetch: fakeFetch('network') });
    await expect(loader.show(decision)).rejects.toMatchObject({ type: 'settings' });
  });
});

describe('wiring mistakes', () => {
  it('a missing aid throws at once, with the fix', () => {
    expect(() => createCaptchaLoader({ aid: '', document: page })).toThrow(/Pass your app id/);
  });

  it('no document (e.g. on a server) makes load() reject with the fix, and the state stays NOT_LOADED', async () => {
    const loader = createCaptchaLoader({ aid: 1, fetch: fakeFetch() });
    await expect(loader.load()).rejects.toThrow(/pass `document`/);
    expect(loader.getState()).toBe(NOT_LOADED);
  });
});
