/**
 * What leaves the page: batches of events, posted as JSON to the collector. Every field is listed
 * here, so a review of this file is a review of what the monitor can send. None of them holds an
 * identifier of a person (mobile, e-mail, user id) or a query string that was not allow-listed.
 */

/** The steps of the sign-in funnel, in the order a person meets them (`failed` may end any of them). */
export const FUNNEL_STEPS = [
  'method_shown',
  'code_sent',
  'challenge_shown',
  'challenge_solved',
  'second_verify',
  'signed_in',
  'failed',
] as const;

export type FunnelStep = (typeof FUNNEL_STEPS)[number];

/** What the caller of `monitor.funnel(step, fields)` may say about the step. */
export interface FunnelFields {
  /** How the person signs in: a short token such as 'mobile_code', 'email_code', 'password', 'qr'. */
  method?: string;
  /** Overrides the monitor's `app` for this event. */
  app?: string;
  /** Overrides the monitor's `flavour` for this event. */
  flavour?: string;
  /** The passport's error code, for `failed` (and any step that failed). */
  error_code?: number;
}

/** The fields of each event kind, besides the common `kind`, `time`, `page` and `rate`. */
export interface EventFields {
  /** Once per (sampled) session, when it starts. */
  session_start: {
    /** The origin the person came from ('' when none or unknown); never its path or query. */
    referrer: string;
    language: string;
    /** `innerWidth`x`innerHeight`, '' when unknown. */
    viewport: string;
  };
  /** The first page of a load and every history navigation that changes the (sanitised) address. */
  page_view: {
    navigation: 'load' | 'push' | 'replace' | 'pop';
    /** The page before this one, '' for the first. */
    from: string;
  };
  /** An uncaught error or an unhandled rejection, once per fingerprint and session. */
  js_error: {
    source: 'error' | 'unhandledrejection';
    name: string;
    /** Scrubbed: e-mail addresses, long numbers and query strings removed. */
    message: string;
    /** Scrubbed like the message; at most 4000 characters. */
    stack: string;
    /** Groups repeats: a hash of the name, message and first stack frame. */
    fingerprint: string;
  };
  /** An image, script or stylesheet that failed to load. */
  resource_error: { tag: string; url: string };
  /** A loaded resource (PerformanceResourceTiming); fetch and XHR calls are left to `http`. */
  resource: {
    url: string;
    initiator: string;
    duration_ms: number;
    transfer_bytes: number;
    /** Whether it came from the cache (transfer size 0, decoded size above 0). */
    cached: boolean;
  };
  /** A web-vitals metric, as the `web-vitals` package reports it. */
  web_vital: {
    name: 'CLS' | 'FCP' | 'INP' | 'LCP' | 'TTFB';
    value: number;
    rating: 'good' | 'needs-improvement' | 'poor';
    navigation_type: string;
  };
  /** The challenge script loader: loaded, fell back to the next address, or failed. */
  captcha: {
    phase: 'load' | 'fallback' | 'error';
    /** The script (or settings) address, without its query. */
    url: string;
    /** Milliseconds since the load started; 0 for `error`. */
    elapsed_ms: number;
    /** `load`: candidates that failed first; `fallback`: the address tried next. */
    fallbacks?: number;
    to?: string;
    version?: string;
    /** `fallback` and `error`: why ("LoadJSSDKMoreTan4000ms", "Failed to load SDK!", …). */
    message?: string;
    /** `error`: 'settings' or 'loadJSSDK'. */
    error_type?: string;
  };
  /** One step of the sign-in funnel (`monitor.funnel`). */
  funnel: { step: FunnelStep } & FunnelFields;
  /** One call of the account SDK: never its query or payload. */
  http: {
    method: string;
    /** The path only, e.g. '/passport/web/sms_login/'. */
    path: string;
    /** HTTP status, 0 when no response arrived. */
    status: number;
    duration_ms: number;
    /** 0 for success; the passport's error code, or -1 for network/timeout/abort failures. */
    error_code: number;
    /** The passport's log id (`x-tt-logid`), '' when none. */
    log_id: string;
  };
}

export type EventKind = keyof EventFields;

/** Common to every event. */
export interface EventBase<K extends EventKind = EventKind> {
  kind: K;
  /** Milliseconds since the epoch, from the monitor's clock. */
  time: number;
  /** The page's address when the event happened, sanitised (a same-origin page is its path). */
  page: string;
  /** The probability this event was sampled with; the collector counts it as 1 / rate events. */
  rate: number;
}

export type MonitorEvent<K extends EventKind = EventKind> = K extends EventKind
  ? EventBase<K> & EventFields[K]
  : never;

/** One POST to the collector. */
export interface MonitorBatch {
  /** The format's version. */
  v: 1;
  /** A random id of this browser-tab session (not of the person); the sampling decisions hang on it. */
  session: string;
  app: string;
  flavour: string;
  /** Counts the batches of this page load from 0, so the collector can spot loss and repeats. */
  seq: number;
  /** When the batch was handed to the transport. */
  sent_at: number;
  /** At most 20. */
  events: MonitorEvent[];
}
