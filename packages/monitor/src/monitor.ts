import {
  type Clock,
  type DocumentLike,
  type FetchLike,
  lookupGlobal,
  type MonitorEnvironment,
  type NavigatorLike,
  type StorageLike,
  systemClock,
  type WindowLike,
} from './environment';
import {
  type EventFields,
  type EventKind,
  FUNNEL_STEPS,
  type FunnelFields,
  type FunnelStep,
  type MonitorBatch,
  type MonitorEvent,
} from './events';
import { sanitizeUrl, scrubText, token } from './privacy';
import { type SamplingKind, samplingRates } from './sampling';
import { MonitorSession } from './session';
import { beaconTransport, type Transport } from './transport';

/** The spec's batching (§9): at most 20 events a batch, sent 1000 ms after the first is queued. */
export const BATCH_SIZE = 20;
export const FLUSH_WAIT_MS = 1000;

export interface MonitorOptions {
  /** The app the events belong to (your `aid`, or a short name); the dashboard filters by it. Required. */
  app: string | number;
  /** The flavour of the page: 'web', 'sso' or 'app'. Default 'web'. */
  flavour?: string;
  /** Where the default transport posts batches. Default '/monitor/batch/' on the page's origin. */
  url?: string;
  /** How batches leave. Default `beaconTransport({ url })`: keep-alive fetch, `sendBeacon` on page hide. */
  transport?: Transport;
  /** Rates per kind, from 0 to 1, over `DEFAULT_SAMPLING` (the spec's). Decided once per session. */
  sampling?: Partial<Record<SamplingKind, number>>;
  /** Query parameters kept in page and resource addresses. Default none: every query is dropped. */
  allowParams?: readonly string[];
  /** Random numbers in [0, 1) for the session id and the sampling decisions. Default `Math.random`. */
  random?: () => number;
  /** Time and timers. Default `Date.now` and the global timers, looked up per call. */
  clock?: Clock;
  /** Where the session lives. Default the global `sessionStorage` when usable; `null` for none. */
  storage?: StorageLike | null;
  /** Default the global `window`; `null` for none (no page-hide flush, no page address). */
  window?: WindowLike | null;
  /** Default the global `document`; `null` for none. */
  document?: DocumentLike | null;
  /** Default the global `navigator`; `null` for none. */
  navigator?: NavigatorLike | null;
  /** The default transport's `fetch`. Default the global `fetch`. */
  fetch?: FetchLike;
  /** At most this many events leave one page load; the rest are dropped (a runaway loop). Default 500. */
  maxEvents?: number;
}

/** Something that watches the page (or a library) and records events; `monitor.use(collector)`. */
export interface Collector {
  /** One collector of a name per monitor. */
  readonly name: string;
  /** Starts watching; returns the function that stops. */
  install(monitor: Monitor): () => void;
}

export interface RecordOptions {
  /** Sample the event as this kind instead of its own (a failed SDK call as 'error_trace'). */
  sampleAs?: SamplingKind;
}

export interface Monitor {
  readonly app: string;
  readonly flavour: string;
  /** The browser-tab session; `isNew` when this page load started it. */
  readonly session: { readonly id: string; readonly isNew: boolean };
  /** The window, document and navigator the monitor was given (or found). */
  readonly environment: Readonly<MonitorEnvironment>;
  readonly clock: Clock;
  /** Installs collectors; returns the function that uninstalls them all. */
  use(...collectors: Collector[]): () => void;
  /** Queues an event when this session samples its kind; true when queued. Never throws. */
  record<K extends EventKind>(kind: K, fields: EventFields[K], options?: RecordOptions): boolean;
  /** Records one step of the sign-in funnel. */
  funnel(step: FunnelStep, fields?: FunnelFields): boolean;
  /** Whether this session sends events sampled as `kind`: collectors skip their work when not. */
  sampled(kind: SamplingKind): boolean;
  /** False when this session has already sent an error with this fingerprint. */
  firstSeen(fingerprint: string): boolean;
  /** The current page's address as events carry it. */
  page(): string;
  /** An address as it may leave the page (see `sanitizeUrl`), relative to the current page. */
  sanitizeUrl(url: string): string;
  /** Free text as it may leave the page (see `scrubText`). */
  scrubText(text: string, max: number): string;
  /** Sends what is queued now, in batches of 20. */
  flush(): void;
  /** Sends what is queued, uninstalls every collector and stops; later events are dropped. */
  close(): void;
}

function wiringError(what: string, fix: string): TypeError {
  return new TypeError(`@portico/monitor: ${what}. ${fix}`);
}

/** An option's value, else the global of that name; `null` means none. */
function pick<T>(value: T | null | undefined, global: string): T | undefined {
  if (value === null) return undefined;
  return value ?? lookupGlobal<T>(global);
}

export function createMonitor(options: MonitorOptions): Monitor {
  const app = token(options.app);
  if (app === undefined || app === 'other') {
    throw wiringError(
      `\`app\` is ${JSON.stringify(options.app)}`,
      "Pass your app id or a short name: createMonitor({ app: 1128 }) or { app: 'web' }.",
    );
  }
  const flavour = token(options.flavour) ?? 'web';
  if (options.transport !== undefined && typeof options.transport !== 'function') {
    throw wiringError(
      '`transport` is not a function',
      'Pass (batch, { unloading }) => void, or leave it out.',
    );
  }
  const rates = samplingRates(options.sampling);
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const maxEvents = options.maxEvents ?? 500;
  const environment: MonitorEnvironment = {
    window: pick(options.window, 'window'),
    document: pick(options.document, 'document'),
    navigator: pick(options.navigator, 'navigator'),
  };
  const transport =
    options.transport ??
    beaconTransport({ url: options.url, navigator: environment.navigator, fetch: options.fetch });
  const session = new MonitorSession(pick(options.storage, 'sessionStorage'), rates, random);
  const urlRules = () => ({ base: environment.window?.location.href, allowParams: options.allowParams });

  let queue: MonitorEvent[] = [];
  let timer: unknown;
  let seq = 0;
  let accepted = 0;
  let closed = false;
  /** After the page was hidden, events recorded later (web vitals report then) leave at once. */
  let hidden = environment.document?.visibilityState === 'hidden';
  let hiddenFlushQueued = false;
  const installed = new Map<string, () => void>();

  const send = (unloading: boolean) => {
    if (timer !== undefined) {
      clock.clearTimeout(timer);
      timer = undefined;
    }
    while (queue.length > 0) {
      const batch: MonitorBatch = {
        v: 1,
        session: session.id,
        app,
        flavour,
        seq: seq++,
        sent_at: clock.now(),
        events: queue.slice(0, BATCH_SIZE),
      };
      queue = queue.slice(BATCH_SIZE);
      try {
        Promise.resolve(transport(batch, { unloading })).catch(() => undefined);
      } catch {
        // A failing transport loses this batch, never the page.
      }
    }
  };

  const rateOf = (kind: SamplingKind) => (kind === 'session' ? rates.session : rates.session * rates[kind]);

  const monitor: Monitor = {
    app,
    flavour,
    session: { id: session.id, isNew: session.isNew },
    environment,
    clock,
    use(...collectors) {
      const mine: string[] = [];
      for (const collector of collectors) {
        if (installed.has(collector.name)) {
          throw wiringError(
            `a collector named '${collector.name}' is installed already`,
            'Call the uninstall function use() returned before using it again.',
          );
        }
        if (closed) continue;
        installed.set(collector.name, collector.install(monitor));
        mine.push(collector.name);
      }
      return () => {
        for (const name of mine.splice(0)) {
          installed.get(name)?.();
          installed.delete(name);
        }
      };
    },
    record(kind, fields, recordOptions = {}) {
      const sampleAs: SamplingKind = recordOptions.sampleAs ?? (kind === 'session_start' ? 'session' : kind);
      if (closed || accepted >= maxEvents || !session.sampled(sampleAs)) return false;
      accepted++;
      const event = { ...fields, kind, time: clock.now(), page: monitor.page(), rate: rateOf(sampleAs) };
      queue.push(event as MonitorEvent);
      if (hidden) {
        if (!hiddenFlushQueued) {
          hiddenFlushQueued = true;
          void Promise.resolve().then(() => {
            hiddenFlushQueued = false;
            send(true);
          });
        }
      } else if (queue.length >= BATCH_SIZE) send(false);
      else if (timer === undefined) timer = clock.setTimeout(() => send(false), FLUSH_WAIT_MS);
      return true;
    },
    funnel(step, fields = {}) {
      if (!FUNNEL_STEPS.includes(step)) return false;
      const event: EventFields['funnel'] = { step };
      const method = token(fields.method);
      const eventApp = token(fields.app);
      const eventFlavour = token(fields.flavour);
      if (method !== undefined) event.method = method;
      if (eventApp !== undefined) event.app = eventApp;
      if (eventFlavour !== undefined) event.flavour = eventFlavour;
      if (Number.isInteger(fields.error_code)) event.error_code = fields.error_code as number;
      return monitor.record('funnel', event);
    },
    sampled: (kind) => !closed && session.sampled(kind),
    firstSeen: (fingerprint) => session.firstSeen(fingerprint),
    page: () => {
      const href = environment.window?.location.href;
      return href ? sanitizeUrl(href, urlRules()) : '';
    },
    sanitizeUrl: (url) => sanitizeUrl(url, urlRules()),
    scrubText: (text, max) => scrubText(text, max, urlRules()),
    flush: () => send(false),
    close() {
      if (closed) return;
      for (const uninstall of installed.values()) uninstall();
      installed.clear();
      removePageHide();
      send(false);
      closed = true;
    },
  };

  const onPageHide = () => {
    hidden = true;
    send(true);
  };
  const onVisibility = () => {
    if (environment.document?.visibilityState === 'hidden') onPageHide();
    else hidden = false;
  };
  const onPageShow = () => {
    hidden = environment.document?.visibilityState === 'hidden';
  };
  environment.window?.addEventListener('pagehide', onPageHide);
  environment.window?.addEventListener('pageshow', onPageShow);
  environment.document?.addEventListener('visibilitychange', onVisibility);
  const removePageHide = () => {
    environment.window?.removeEventListener('pagehide', onPageHide);
    environment.window?.removeEventListener('pageshow', onPageShow);
    environment.document?.removeEventListener('visibilitychange', onVisibility);
  };

  return monitor;
}
