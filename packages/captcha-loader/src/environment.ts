/**
 * The little of the browser the loader needs, handed in as options so tests need no global mocks and
 * nothing touches `window` at import time. The real `document`, `fetch` and timers fit these shapes.
 */

/** The part of `<script>` the loader uses. */
export interface ScriptElementLike {
  src: string;
  async: boolean;
  onload: EventHandlerLike;
  onerror: EventHandlerLike;
  remove(): void;
}

/** Matches both `onload` and the wider `onerror` handler types of the DOM. */
type EventHandlerLike = ((this: never, ...args: never[]) => unknown) | null;

/** The part of `document` the loader uses; `defaultView` is the global the script registers on. */
export interface DocumentLike {
  createElement(tagName: 'script'): ScriptElementLike;
  /** `never`: the DOM's `appendChild<T extends Node>` accepts only real nodes, which the loader passes on. */
  head: { appendChild(node: never): unknown } | null;
  defaultView: object | null;
}

export type FetchLike = (
  url: string,
  init: { method: string; credentials: 'include'; headers: Record<string, string>; signal: AbortSignal },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

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
