import type { AccountClient } from '@portico/account-sdk';
import type { CaptchaHooks, FunnelFields, FunnelStep, Monitor, SamplingKind } from '@portico/monitor';

/**
 * The page's monitor, shared by every app (web, sso, app-webview): each app's entry calls
 * `startMonitoring({ app, flavour, client })` and the shared screens report the sign-in funnel with
 * `reportFunnel`. @portico/monitor (and web-vitals) stay out of the first load: they are imported
 * after the page's first paint (the `load` event, then an idle moment), and the funnel steps and
 * challenge-loader events reported before then wait in a short queue.
 */

/** Steps reported before the monitor loaded, replayed once it has (at most this many). */
const QUEUE_MAX = 50;

let current: { monitor: Monitor; captcha: CaptchaHooks } | undefined;
const queue: Array<(target: { monitor: Monitor; captcha: CaptchaHooks }) => void> = [];

function whenReady(action: (target: { monitor: Monitor; captcha: CaptchaHooks }) => void): void {
  if (current) action(current);
  else if (queue.length < QUEUE_MAX) queue.push(action);
}

/** One step of the sign-in funnel (no personal data: a method token and an error code at most). */
export function reportFunnel(step: FunnelStep, fields?: FunnelFields): void {
  whenReady(({ monitor }) => monitor.funnel(step, fields));
}

/** The challenge loader's hooks (`lazyCaptcha` passes them): forwarded to the monitor once loaded. */
export const monitoringCaptchaHooks: CaptchaHooks = {
  onLoad: (event) => whenReady(({ captcha }) => captcha.onLoad(event)),
  onFallback: (event) => whenReady(({ captcha }) => captcha.onFallback(event)),
  onLoadError: (error) => whenReady(({ captcha }) => captcha.onLoadError(error)),
};

export interface StartMonitoringOptions {
  /** The app id or a short name, e.g. 1128. */
  app: number | string;
  /** Which flavour of the account pages this is. */
  flavour: 'web' | 'sso' | 'app';
  /** The app's account client: its calls are recorded (`monitorPlugin`). */
  client: AccountClient;
  /** Where batches go. Default '/monitor/batch/' on the page's origin. */
  url?: string;
  /** Sampling rates over the monitor's defaults (e2e builds may raise them). */
  sampling?: Partial<Record<SamplingKind, number>>;
  /** Waits for the moment to load the monitor. Default: the `load` event, then an idle moment. */
  afterFirstPaint?: () => Promise<void>;
  /** Imports the monitor. Default `import('@portico/monitor')` (tests hand in the module). */
  load?: () => Promise<typeof import('@portico/monitor')>;
}

function afterLoadAndIdle(): Promise<void> {
  return new Promise((resolve) => {
    const idle = () => {
      const ric = (globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => void })
        .requestIdleCallback;
      if (ric) ric(() => resolve(), { timeout: 2000 });
      else setTimeout(resolve, 1);
    };
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
  });
}

/**
 * Loads the monitor after first paint and installs every collector, the account client's plugin and
 * the challenge loader's hooks. Resolves with the monitor (undefined when the import failed:
 * monitoring never breaks the page). Calling it again returns the first call's promise.
 */
let started: Promise<Monitor | undefined> | undefined;
export function startMonitoring(options: StartMonitoringOptions): Promise<Monitor | undefined> {
  started ??= (async () => {
    try {
      await (options.afterFirstPaint ?? afterLoadAndIdle)();
      const m = await (options.load ?? (() => import('@portico/monitor')))();
      const monitor = m.createMonitor({
        app: options.app,
        flavour: options.flavour,
        ...(options.url ? { url: options.url } : {}),
        ...(options.sampling ? { sampling: options.sampling } : {}),
      });
      const captcha = m.captchaEvents();
      monitor.use(
        m.sessionStart(),
        m.pageViews(),
        m.jsErrors(),
        m.resourceErrors(),
        m.resourceTiming(),
        m.webVitals(),
        captcha,
      );
      options.client.use(m.monitorPlugin(monitor));
      current = { monitor, captcha: captcha.hooks };
      for (const action of queue.splice(0)) action(current);
      return monitor;
    } catch {
      return undefined;
    }
  })();
  return started;
}

/** For tests: forgets the started monitor and the queue. */
export function resetMonitoringForTests(): void {
  current?.monitor.close();
  current = undefined;
  started = undefined;
  queue.length = 0;
}
