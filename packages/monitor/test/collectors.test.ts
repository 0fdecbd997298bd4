import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  captchaEvents,
  jsErrors,
  type PerformanceObserverConstructor,
  pageViews,
  type ResourceEntryLike,
  resourceErrors,
  resourceTiming,
  sessionStart,
  type WebVitalsReporters,
  webVitals,
} from '../src/index';
import { memoryStorage, setup } from './fakes';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Sends what is queued and returns the events sent so far. */
function sent(context: ReturnType<typeof setup>) {
  context.monitor.flush();
  return context.sink.events;
}

describe('monitor.use', () => {
  it('installs collectors, returns one uninstall for them all, and refuses a second of a name', () => {
    const context = setup();
    const uninstall = context.monitor.use(jsErrors(), resourceErrors());
    expect(context.window.listeners.map((l) => `${l.type}${l.capture ? ' (capture)' : ''}`).sort()).toEqual([
      'error',
      'error (capture)',
      'pagehide',
      'pageshow',
      'unhandledrejection',
    ]);
    expect(() => context.monitor.use(jsErrors())).toThrow(
      /a collector named 'js-errors' is installed already/,
    );
    uninstall();
    expect(context.window.listeners.map((l) => l.type).sort()).toEqual(['pagehide', 'pageshow']);
    context.monitor.use(jsErrors());
  });
});

describe('sessionStart', () => {
  it('records the start of a new session once: referring origin, language, viewport', () => {
    const storage = memoryStorage();
    const first = setup({ storage, navigator: { language: 'zh-CN' } });
    first.document.referrer = 'https://search.example/results?q=ada%40example.com';
    first.monitor.use(sessionStart());
    expect(sent(first)).toMatchObject([
      { kind: 'session_start', referrer: 'https://search.example', language: 'zh-CN', viewport: '1280x720' },
    ]);
    const next = setup({ storage });
    next.monitor.use(sessionStart());
    expect(sent(next)).toEqual([]);
  });
});

describe('pageViews', () => {
  it('records the first page, then each push, replace or back that changes the address', () => {
    const context = setup();
    const uninstall = context.monitor.use(pageViews());
    const { history } = context.window;
    history.pushState(null, '', '/sign-up?mobile=13800138000');
    history.replaceState(null, '', '/sign-up?step=2'); // same page once the query is gone
    history.pushState(null, '', '/reset#top');
    context.window.location.href = 'https://accounts.example/sign-up';
    context.window.fire('popstate');
    uninstall();
    history.pushState(null, '', '/after');
    expect(sent(context).map((e) => e.kind === 'page_view' && [e.navigation, e.from, e.page])).toEqual([
      ['load', '', '/login'],
      ['push', '/login', '/sign-up'],
      ['push', '/sign-up', '/reset'],
      ['pop', '/reset', '/sign-up'],
    ]);
    expect(context.window.location.href).toBe('https://accounts.example/after');
  });

  it('leaves history alone in a session that does not sample page views', () => {
    const context = setup({ sampling: { page_view: 0 } });
    const { history } = context.window;
    const original = history.pushState;
    context.monitor.use(pageViews());
    expect(history.pushState).toBe(original);
    expect(context.window.listeners.map((l) => l.type)).not.toContain('popstate');
  });

  it('puts history back as it was, unless another wrapper was added over it (which then still works)', () => {
    const context = setup();
    const { history } = context.window;
    const original = history.pushState;
    context.monitor.use(pageViews())();
    expect(history.pushState).toBe(original);

    const uninstall = context.monitor.use(pageViews());
    const ours = history.pushState;
    const theirs = vi.fn((...args: Parameters<typeof ours>) => ours.apply(history, args));
    history.pushState = theirs;
    uninstall();
    history.pushState(null, '', '/later');
    expect(history.pushState).toBe(theirs);
    expect(context.window.location.href).toBe('https://accounts.example/later');
    expect(sent(context).filter((e) => e.kind === 'page_view')).toHaveLength(2); // the two loads only
  });
});

describe('jsErrors', () => {
  it('records an uncaught error with its stack, scrubbed', () => {
    const context = setup();
    context.monitor.use(jsErrors());
    const error = new TypeError('No account for ada@example.com');
    error.stack = `TypeError: No account for ada@example.com\n    at submit (https://accounts.example/assets/app.js?v=1:3:9)`;
    context.window.fire('error', { message: error.message, error });
    expect(sent(context)).toMatchObject([
      {
        kind: 'js_error',
        source: 'error',
        name: 'TypeError',
        message: 'No account for <email>',
        stack: 'TypeError: No account for <email>\n    at submit (/assets/app.js:3:9)',
        fingerprint: expect.stringMatching(/^[0-9a-f]{8}$/),
      },
    ]);
  });

  it('records unhandled rejections, of errors and of anything else', () => {
    const context = setup();
    context.monitor.use(jsErrors());
    context.window.fire('unhandledrejection', { reason: new Error('late') });
    context.window.fire('unhandledrejection', { reason: 'plain text' });
    context.window.fire('unhandledrejection', { reason: { mobile: '13800138000' } });
    context.window.fire('unhandledrejection', { reason: undefined });
    expect(sent(context).map((e) => e.kind === 'js_error' && [e.source, e.name, e.message])).toEqual([
      ['unhandledrejection', 'Error', 'late'],
      ['unhandledrejection', 'string', 'plain text'],
      ['unhandledrejection', 'object', 'Unhandled rejection'],
      ['unhandledrejection', 'Error', 'Unhandled rejection'],
    ]);
  });

  it('records a cross-origin "Script error." with where it happened', () => {
    const context = setup();
    context.monitor.use(jsErrors());
    context.window.fire('error', { message: 'Script error.', filename: '', lineno: 0, colno: 0 });
    context.window.fire('error', {
      message: 'x',
      filename: 'https://cdn.example/a.js?k=1',
      lineno: 4,
      colno: 2,
    });
    expect(sent(context).map((e) => e.kind === 'js_error' && [e.message, e.stack])).toEqual([
      ['Script error.', ''],
      ['x', 'https://cdn.example/a.js:4:2'],
    ]);
  });

  it('sends an error once per session: repeats on this page and on the next page of the tab are dropped', () => {
    const storage = memoryStorage();
    const first = setup({ storage });
    first.monitor.use(jsErrors());
    const throwIt = (message: string) => {
      const error = new Error(message);
      error.stack = `Error: ${message}\n    at loop (https://accounts.example/app.js:1:1)`;
      first.window.fire('error', { message, error });
    };
    for (let i = 0; i < 50; i++) throwIt('boom');
    throwIt('other');
    expect(sent(first).map((e) => e.kind === 'js_error' && e.message)).toEqual(['boom', 'other']);

    const next = setup({ storage });
    next.monitor.use(jsErrors());
    const error = new Error('boom');
    error.stack = 'Error: boom\n    at loop (https://accounts.example/app.js:1:1)';
    next.window.fire('error', { message: 'boom', error });
    expect(sent(next)).toEqual([]);
  });

  it('does nothing, not even fingerprinting, in a session that does not sample errors', () => {
    const context = setup({ sampling: { js_error: 0 } });
    context.monitor.use(jsErrors());
    context.window.fire('error', { message: 'boom', error: new Error('boom') });
    expect(sent(context)).toEqual([]);
    expect(context.storage.getItem('portico.monitor')).toContain('"seen":[]');
  });
});

describe('resourceErrors', () => {
  it('records an element that failed to load, heard while capturing, once per address', () => {
    const context = setup();
    context.monitor.use(resourceErrors(), jsErrors());
    const image = { tagName: 'IMG', src: 'https://cdn.example/avatar.png?user=13800138000' };
    context.window.fire('error', { target: image }, 'capture');
    context.window.fire('error', { target: image }, 'capture');
    context.window.fire('error', { target: { tagName: 'LINK', href: '/styles.css' } }, 'capture');
    expect(sent(context)).toMatchObject([
      { kind: 'resource_error', tag: 'img', url: 'https://cdn.example/avatar.png' },
      { kind: 'resource_error', tag: 'link', url: '/styles.css' },
    ]);
  });

  it('listens to nothing in a session that samples neither errors nor resource errors', () => {
    const context = setup({ sampling: { js_error: 0, resource_error: 0 } });
    context.monitor.use(jsErrors(), resourceErrors());
    expect(context.window.listeners.map((l) => l.type).sort()).toEqual(['pagehide', 'pageshow']);
  });

  it('leaves errors of the window itself to jsErrors', () => {
    const context = setup();
    context.monitor.use(resourceErrors());
    context.window.fire('error', { target: context.window, message: 'boom' });
    expect(sent(context)).toEqual([]);
  });
});

describe('resourceTiming', () => {
  function fakeObserver() {
    const observers: Array<{
      callback: (list: { getEntries(): ResourceEntryLike[] }) => void;
      disconnected: boolean;
      options?: unknown;
    }> = [];
    const Observer = class {
      readonly entry: (typeof observers)[number];
      constructor(callback: (list: { getEntries(): ResourceEntryLike[] }) => void) {
        this.entry = { callback, disconnected: false };
        observers.push(this.entry);
      }
      observe(options: unknown) {
        this.entry.options = options;
      }
      disconnect() {
        this.entry.disconnected = true;
      }
    } satisfies PerformanceObserverConstructor;
    const deliver = (...entries: ResourceEntryLike[]) => {
      for (const o of observers) if (!o.disconnected) o.callback({ getEntries: () => entries });
    };
    return { Observer, observers, deliver };
  }

  it('records loaded resources, buffered ones included, but not calls (the http events) or the monitor’s own posts', () => {
    const context = setup();
    const { Observer, observers, deliver } = fakeObserver();
    const uninstall = context.monitor.use(resourceTiming({ PerformanceObserver: Observer }));
    expect(observers[0]?.options).toEqual({ type: 'resource', buffered: true });
    deliver(
      {
        name: 'https://accounts.example/assets/app.js?v=2',
        initiatorType: 'script',
        duration: 120.6,
        transferSize: 3000,
        decodedBodySize: 9000,
      },
      {
        name: 'https://cdn.example/font.woff2',
        initiatorType: 'css',
        duration: 3.2,
        transferSize: 0,
        decodedBodySize: 5000,
      },
      { name: 'https://accounts.example/passport/web/sms_login/', initiatorType: 'fetch', duration: 80 },
      { name: 'https://accounts.example/monitor/batch/', initiatorType: 'beacon', duration: 5 },
    );
    uninstall();
    deliver({ name: 'https://accounts.example/late.js', initiatorType: 'script', duration: 1 });
    expect(observers[0]?.disconnected).toBe(true);
    expect(sent(context)).toMatchObject([
      {
        kind: 'resource',
        url: '/assets/app.js',
        initiator: 'script',
        duration_ms: 121,
        transfer_bytes: 3000,
        cached: false,
      },
      {
        kind: 'resource',
        url: 'https://cdn.example/font.woff2',
        initiator: 'css',
        duration_ms: 3,
        cached: true,
      },
    ]);
  });

  it('observes nothing in a session that does not sample resources', () => {
    const context = setup({ sampling: { resource: 0 } });
    const { Observer, observers } = fakeObserver();
    context.monitor.use(resourceTiming({ PerformanceObserver: Observer }));
    expect(observers).toEqual([]);
  });
});

describe('webVitals', () => {
  function fakeReporters() {
    const callbacks: Array<(metric: never) => void> = [];
    const register = (callback: (metric: never) => void) => void callbacks.push(callback);
    const reporters = {
      onCLS: register,
      onFCP: register,
      onINP: register,
      onLCP: register,
      onTTFB: register,
    };
    const report = (name: string, value: number, rating = 'good') => {
      for (const callback of callbacks)
        callback({ name, value, rating, navigationType: 'navigate' } as never);
    };
    return { reporters: reporters as WebVitalsReporters, callbacks, report };
  }

  it('registers with each web-vitals reporter and records what they report', () => {
    const context = setup({ sampling: { web_vital: 1 } });
    const { reporters, callbacks, report } = fakeReporters();
    const uninstall = context.monitor.use(webVitals({ reporters }));
    expect(callbacks).toHaveLength(5);
    callbacks[0]?.({ name: 'LCP', value: 1834.4, rating: 'good', navigationType: 'navigate' } as never);
    callbacks[1]?.({
      name: 'CLS',
      value: 0.123456,
      rating: 'needs-improvement',
      navigationType: 'reload',
    } as never);
    uninstall();
    report('INP', 300, 'poor');
    expect(sent(context)).toMatchObject([
      { kind: 'web_vital', name: 'LCP', value: 1834, rating: 'good', navigation_type: 'navigate' },
      {
        kind: 'web_vital',
        name: 'CLS',
        value: 0.1235,
        rating: 'needs-improvement',
        navigation_type: 'reload',
      },
    ]);
  });

  it('does not register in a session that does not sample web vitals', () => {
    const context = setup({ sampling: { web_vital: 0 } });
    const { reporters, callbacks } = fakeReporters();
    context.monitor.use(webVitals({ reporters }));
    expect(callbacks).toEqual([]);
  });

  it('uses the web-vitals package by default, which stays quiet outside a browser', () => {
    const context = setup({ sampling: { web_vital: 1 } });
    expect(() => context.monitor.use(webVitals())).not.toThrow();
  });
});

describe('captchaEvents', () => {
  it('turns the loader’s hooks into events while installed', () => {
    const context = setup();
    const collector = captchaEvents();
    collector.hooks.onLoad({ url: 'https://cdn.example/c.js', elapsedMs: 5, fallbacks: 0 }); // not installed yet
    const uninstall = context.monitor.use(collector);
    collector.hooks.onFallback({
      from: 'https://cdn.example/c.js?t=1',
      to: 'https://backup.example/c.js',
      message: 'LoadJSSDKMoreTan4000ms',
      elapsedMs: 4012.7,
    });
    collector.hooks.onLoad({
      url: 'https://backup.example/c.js',
      version: '1.0.0',
      elapsedMs: 4300,
      fallbacks: 1,
    });
    collector.hooks.onLoadError({
      type: 'settings',
      url: 'https://accounts.example/vc/setting?aid=1&language=zh',
      message:
        'Challenge settings from GET https://accounts.example/vc/setting?aid=1&language=zh failed after 2 attempts: HTTP 502',
    } as never);
    uninstall();
    collector.hooks.onLoad({ url: 'https://cdn.example/c.js', elapsedMs: 5, fallbacks: 0 });
    expect(sent(context)).toMatchObject([
      {
        kind: 'captcha',
        phase: 'fallback',
        url: 'https://cdn.example/c.js',
        to: 'https://backup.example/c.js',
        message: 'LoadJSSDKMoreTan4000ms',
        elapsed_ms: 4013,
      },
      {
        kind: 'captcha',
        phase: 'load',
        url: 'https://backup.example/c.js',
        version: '1.0.0',
        fallbacks: 1,
        elapsed_ms: 4300,
      },
      {
        kind: 'captcha',
        phase: 'error',
        error_type: 'settings',
        url: '/vc/setting',
        message: 'Challenge settings from GET /vc/setting failed after 2 attempts: HTTP 502',
      },
    ]);
  });
});
