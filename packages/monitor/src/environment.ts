/**
 * The little of the browser the monitor needs, handed in as options so tests need no global mocks and
 * nothing touches `window` at import time. The real `window`, `document`, `navigator`, `sessionStorage`,
 * `fetch` and timers fit these shapes (a type test holds them to it).
 */

/** `addEventListener`/`removeEventListener`; the listeners read the event's fields they need. */
export interface EventTargetLike {
  addEventListener(type: string, listener: (event: Event) => void, capture?: boolean): void;
  removeEventListener(type: string, listener: (event: Event) => void, capture?: boolean): void;
}

/** The part of `history` page views wrap. */
export interface HistoryLike {
  pushState(data: unknown, unused: string, url?: string | URL | null): void;
  replaceState(data: unknown, unused: string, url?: string | URL | null): void;
}

/** The part of `window` the monitor and its collectors use. */
export interface WindowLike extends EventTargetLike {
  location: { href: string };
  history?: HistoryLike;
  innerWidth?: number;
  innerHeight?: number;
}

/** The part of `document` the monitor uses: page-hide flushes and the referrer of a session. */
export interface DocumentLike extends EventTargetLike {
  visibilityState: string;
  referrer?: string;
}

/** The part of `navigator` the monitor uses. */
export interface NavigatorLike {
  sendBeacon?(url: string, data?: string): boolean;
  language?: string;
}

/** `sessionStorage` or anything alike; where the session's id and sampling decisions live. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export type FetchLike = (
  url: string,
  init: {
    method: 'POST';
    body: string;
    headers: Record<string, string>;
    keepalive: true;
    credentials: 'omit';
  },
) => Promise<unknown>;

/** Time, handed in so tests can use fake timers. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The global clock, looked up on each call (never captured at import time). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** What the monitor runs in; every part may be missing (server rendering, a worker, a test). */
export interface MonitorEnvironment {
  window?: WindowLike | undefined;
  document?: DocumentLike | undefined;
  navigator?: NavigatorLike | undefined;
}

/** Reads a global without throwing (a sandboxed frame throws on `sessionStorage`). */
export function lookupGlobal<T>(name: string): T | undefined {
  try {
    return (globalThis as Record<string, unknown>)[name] as T | undefined;
  } catch {
    return undefined;
  }
}
