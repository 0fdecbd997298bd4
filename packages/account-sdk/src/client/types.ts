import type { AccountHooks, AccountPlugin } from '../hooks/types';
import type { AccountSource, Region } from '../protocol/defaults';
import type { EnvelopeSource } from '../protocol/envelopes';

/** Produces the request signature for a URL and body; sent as the `_signature` query parameter. */
export type Signer = (request: {
  method: string;
  /** Path and query, relative to the base URL. */
  url: string;
  /** The form-encoded body, or undefined for GET and multipart. */
  body: string | undefined;
}) => string | undefined | Promise<string | undefined>;

/** Anything with a `cookie` property that reads and writes like `document.cookie`. */
export interface CookieDocument {
  cookie: string;
}

export interface AccountClientOptions {
  /** Your app id. Required. */
  aid: number | string;
  /** Which flavour the client speaks: 'web' | 'app' | 'sso'. Default 'web'. */
  source?: AccountSource;
  /** Origin (and optional path) of the passport server. Default: the page's own origin. */
  baseUrl?: string;
  /** Picks the base URL from `regions`; ignored when `baseUrl` is set. Default 'sg' when `regions` is set. */
  region?: Region;
  /** Base URL per region, e.g. `{ sg: 'https://sg.example.com', va: 'https://va.example.com' }`. Default {}. */
  regions?: Partial<Record<Region, string>>;
  /** Sent as `language`. Default 'zh'. */
  language?: string;
  /** Device id. Default '0'. */
  did?: string;
  /** Install id. Default '0'. */
  iid?: string;
  /** Your app's name, part of `account_sdk_source_info`. Default: none. */
  appName?: string;
  /**
   * Returns the device fingerprint sent as `verifyFp`; waited for at most 1000 ms, then ''.
   * Default: the `s_v_web_id` cookie, created once per browser.
   */
  fingerprint?: () => string | Promise<string>;
  /** Domain for the `s_v_web_id` cookie; used only when it looks like a dotted host name. Default: none (host-only). */
  cookieDomain?: string;
  /** Where cookies are read (CSRF token, web id) and written (web id). Default: `globalThis.document`. */
  document?: CookieDocument;
  /** Signs each request. Default: none. */
  signer?: Signer;
  /** ky hooks run inside every call, before any plugin's (see `AccountHooks`). Default: none. */
  hooks?: AccountHooks;
  /** The fetch implementation. Default: `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Per-request timeout in ms. Default 5000. */
  timeout?: number;
  /** Print each response's `x-tt-logid` with console.log. Default false. */
  printLog?: boolean;
}

export type HttpMethod = 'GET' | 'POST';

/** What a call sends; `client.request` takes it, hooks see it as `RequestConfig`. */
export interface RequestOptions {
  /** A path from `@portico/account-sdk/protocol`; `{aid}` is replaced with the app id. */
  path: string;
  /** Default 'POST'. */
  method?: HttpMethod;
  /** The payload: the form body of a POST, extra query parameters of a GET. Undefined fields are dropped. */
  data?: Record<string, unknown>;
  /** Extra query parameters, after the common ones. */
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Which success rule applies. Default 'web'. */
  envelope?: EnvelopeSource;
  /** Send the payload as multipart/form-data (file uploads). Default false. */
  multipart?: boolean;
  /**
   * The reply is a file (an image download): a 2xx reply that is not JSON resolves as a `Blob` of its
   * bytes, its `type` the reply's content type. A failure is still parsed as the error envelope and
   * rejects with an AccountError. Default false.
   */
  binary?: boolean;
  signal?: AbortSignal;
  /** Overrides the client's timeout for this request. */
  timeout?: number;
}

/** A request as hooks see and may change it. */
export interface RequestConfig extends RequestOptions {
  method: HttpMethod;
  data: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  envelope: EnvelopeSource;
  /** 0 for the first attempt; each hook-driven resend adds one. */
  retryCount: number;
}

/** Per-call options of every call function. */
export interface CallOptions {
  signal?: AbortSignal;
  timeout?: number;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface AccountClient {
  readonly aid: string;
  readonly source: AccountSource;
  /** The resolved base URL; undefined means the page's own origin. */
  readonly baseUrl: string | undefined;
  readonly language: string;
  /** Sends one request; resolves the envelope's data. */
  request<T = unknown>(options: RequestOptions): Promise<T>;
  /**
   * Attaches a plugin (`challengePlugin(…)`, `secondVerifyPlugin(…)`, the monitor, the organisation
   * SDK): its hooks run in every call from now on. Returns the function that removes them. A second
   * plugin of the same name throws a TypeError until the first is removed.
   */
  use(plugin: AccountPlugin): () => void;
}
