// @vitest-environment jsdom
import { createCaptchaLoader } from '@portico/captcha-loader';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  captchaEvents,
  createMonitor,
  jsErrors,
  type Monitor,
  pageViews,
  resourceErrors,
  SESSION_KEY,
} from '../src/index';
import { fakeClock, recorder } from './fakes';

/** The same monitor and collectors against jsdom's real window, history, events and sessionStorage. */
let monitor: Monitor;
let sink: ReturnType<typeof recorder>;

beforeEach(() => {
  vi.useFakeTimers();
  window.history.replaceState(null, '', '/login?next=%2Fhome');
  window.sessionStorage.clear();
  sink = recorder();
  monitor = createMonitor({
    app: 1128,
    window,
    document,
    navigator,
    storage: window.sessionStorage,
    random: () => 0,
    clock: fakeClock(),
    transport: sink.transport,
  });
});
afterEach(() => {
  monitor.close();
  vi.useRealTimers();
});

const sent = () => {
  monitor.flush();
  return sink.events;
};

describe('in a DOM', () => {
  it('follows real history navigation, and leaves history as it was when closed', () => {
    monitor.use(pageViews());
    window.history.pushState(null, '', '/sign-up?mobile=13800138000');
    window.history.pushState(null, '', '/reset');
    expect(sent().map((e) => e.page)).toEqual(['/login', '/sign-up', '/reset']);
    monitor.close();
    expect(Object.hasOwn(window.history, 'pushState')).toBe(false);
  });

  it('hears real error events, and an image that fails to load', () => {
    monitor.use(jsErrors(), resourceErrors());
    const error = new RangeError('bad length');
    window.dispatchEvent(new ErrorEvent('error', { error, message: error.message }));
    const image = document.createElement('img');
    image.src = 'https://cdn.example/avatar.png?user=7';
    document.body.append(image);
    image.dispatchEvent(new Event('error'));
    expect(sent()).toMatchObject([
      { kind: 'js_error', name: 'RangeError', message: 'bad length', page: '/login' },
      { kind: 'resource_error', tag: 'img', url: 'https://cdn.example/avatar.png' },
    ]);
  });

  it('keeps the session in sessionStorage', () => {
    expect(JSON.parse(window.sessionStorage.getItem(SESSION_KEY) ?? '{}')).toMatchObject({
      id: monitor.session.id,
    });
  });

  it('flushes when the document is hidden', () => {
    monitor.funnel('method_shown', { method: 'password' });
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    expect(sink.sent).toMatchObject([{ unloading: true, batch: { app: '1128' } }]);
  });

  it('finds the browser’s globals when none are handed in', () => {
    const found = createMonitor({ app: 'web', transport: sink.transport, random: () => 0 });
    expect(found.environment).toEqual({ window, document, navigator });
    expect(found.page()).toBe('/login');
    found.close();
  });

  it('records the real captcha loader’s fall-back and failure through its hooks', async () => {
    const collector = captchaEvents();
    monitor.use(collector);
    const settings = { sdk_url: 'https://cdn.example/c.js', backup_urls: ['https://backup.example/c.js'] };
    const loader = createCaptchaLoader({
      aid: 1128,
      document,
      clock: fakeClock(),
      fetch: async () => ({
        ok: true,
        status: 200,
        json: async () => ({ message: 'success', data: settings }),
      }),
      ...collector.hooks,
    });
    const loading = loader.load().catch((error: Error) => error);
    await vi.advanceTimersByTimeAsync(8000); // jsdom runs no scripts: each candidate times out after 4 s
    expect(await loading).toMatchObject({ name: 'CaptchaLoadError', type: 'loadJSSDK' });
    expect(sent()).toMatchObject([
      {
        kind: 'captcha',
        phase: 'fallback',
        url: 'https://cdn.example/c.js',
        message: 'LoadJSSDKMoreTan4000ms',
      },
      { kind: 'captcha', phase: 'error', error_type: 'loadJSSDK', url: 'https://backup.example/c.js' },
    ]);
  });
});
