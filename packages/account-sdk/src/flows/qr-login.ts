import { webLogin } from '../calls/login';
import { checkQrcode, getQrcode } from '../calls/qrcode';
import type { AccountClient } from '../client/types';
import { type AccountError, isAccountError } from '../errors/account-error';
import type { QrcodeData, QrLoginData, QrStatusData } from '../protocol/types';
import { createState, type Observable } from './observable';

/** QR_EXPIRED (the "QR sign-in" range, 1900–1949), written out so a page carries no error table. */
const QR_EXPIRED = 1901;
const QR_CANCELLED = 1902;

/**
 * Where a QR sign-in stands, for the browser that shows the code (docs/qr-login.md):
 * `loading` (asking for a code) → `waiting` (shown, not scanned) → `scanned` (show `number`; the person
 * confirms on the phone) → `signing-in` (confirmed; redeeming) → `signed-in`; or `cancelled` (the phone
 * cancelled or picked a wrong number), `expired` (refresh for a new code), `failed` (see `error`).
 */
export type QrLoginStatus =
  | 'idle'
  | 'loading'
  | 'waiting'
  | 'scanned'
  | 'signing-in'
  | 'signed-in'
  | 'cancelled'
  | 'expired'
  | 'failed';

export interface QrLoginSnapshot {
  status: QrLoginStatus;
  /** The code to render: `code.qrcode_index_url` is what the QR encodes. */
  code: QrcodeData | null;
  /** The number to show once the phone scanned (the phone asks the person to pick it). */
  number: number | null;
  /** The account once signed in, with `redirect_url`. */
  account: QrLoginData | null;
  /** The last failure: the reason of `failed`, or a transient one polling recovers from. */
  error: AccountError | null;
  /** True while the page is hidden: polling waits until it is shown again. */
  paused: boolean;
}

/** The timers the flow polls with. Default: the global timers. */
export interface QrLoginClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Whether the page is visible, and a way to hear when that changes. Default: `document.visibilityState`. */
export interface PageVisibility {
  hidden(): boolean;
  /** Calls `listener` on every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export interface QrLoginOptions {
  /** Where to go once signed in (the passport checks it against its redirect rule). Default '/'. */
  next?: string;
  /** The first poll interval, and the one after every change of state. Default 1000 ms. */
  minIntervalMs?: number;
  /** Polls back off by `backoff` while nothing changes, up to this. Default 5000 ms. */
  maxIntervalMs?: number;
  /** Default 1.5. */
  backoff?: number;
  /** After a network failure the interval doubles up to this. Default 30000 ms. */
  maxErrorIntervalMs?: number;
  clock?: QrLoginClock;
  visibility?: PageVisibility;
}

export interface QrLoginFlow extends Observable<QrLoginSnapshot> {
  /** Asks for a code and starts polling (once; later calls do nothing while a code is live). */
  start(): Promise<void>;
  /** A new code: after expiry, cancellation or failure (one click), or at any time. */
  refresh(): Promise<void>;
  /** Stops polling and listening; the snapshot stays. */
  dispose(): void;
}

const globalClock: QrLoginClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The page's visibility from `document`, or always visible where there is no document. */
function documentVisibility(): PageVisibility {
  const doc = (globalThis as { document?: Document }).document;
  if (!doc) return { hidden: () => false, subscribe: () => () => {} };
  return {
    hidden: () => doc.visibilityState === 'hidden',
    subscribe(listener) {
      doc.addEventListener('visibilitychange', listener);
      return () => doc.removeEventListener('visibilitychange', listener);
    },
  };
}

const TERMINAL = new Set<QrLoginStatus>(['signed-in', 'cancelled', 'expired', 'failed']);

/**
 * QR sign-in for the browser that shows the code, as an observable (subscribe / getSnapshot): gets a
 * code (`getQrcode`), polls it (`checkQrcode`) with back-off — 1 s after every change, growing while
 * nothing changes, doubling after a network failure — and stops while the page is hidden (resuming
 * with a poll at once when it is shown); shows the number once scanned; redeems the confirmed code with
 * `webLogin` (the session goes to this browser). Nothing happens until `start()`.
 */
export function createQrLogin(client: AccountClient, options: QrLoginOptions = {}): QrLoginFlow {
  const clock = options.clock ?? globalClock;
  const visibility = options.visibility ?? documentVisibility();
  const minMs = options.minIntervalMs ?? 1000;
  const maxMs = options.maxIntervalMs ?? 5000;
  const factor = options.backoff ?? 1.5;
  const maxErrorMs = options.maxErrorIntervalMs ?? 30_000;
  const state = createState<QrLoginSnapshot>({
    status: 'idle',
    code: null,
    number: null,
    account: null,
    error: null,
    paused: false,
  });
  const patch = (next: Partial<QrLoginSnapshot>) => state.set({ ...state.get(), ...next });

  let timer: unknown;
  let interval = minMs;
  /** Bumped by every new code and by dispose: an answer for an older generation is dropped. */
  let generation = 0;
  let polling = false;
  let unlisten: (() => void) | undefined;
  let disposed = false;

  const stopTimer = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };

  function schedule(ms: number) {
    stopTimer();
    const { status, code } = state.get();
    if (disposed || TERMINAL.has(status) || !code || visibility.hidden()) return;
    // Never wait past the code's expiry: the poll then says so.
    const untilExpiry = Math.max(0, code.expires_at - clock.now());
    timer = clock.setTimeout(() => void poll(), Math.min(ms, untilExpiry + 50));
  }

  async function redeem(token: string, run: number) {
    patch({ status: 'signing-in', number: null });
    try {
      const account = await webLogin<QrLoginData>(client, { token });
      if (run === generation) patch({ status: 'signed-in', account, error: null });
    } catch (error) {
      if (run === generation) fail(error);
    }
  }

  function fail(error: unknown) {
    const code = isAccountError(error) && error.kind === 'response' ? error.error_code : undefined;
    if (code === QR_EXPIRED) patch({ status: 'expired', number: null, error: null });
    else if (code === QR_CANCELLED) patch({ status: 'cancelled', number: null, error: null });
    else patch({ status: 'failed', number: null, error: error as AccountError });
  }

  async function poll() {
    timer = undefined;
    const { code, status } = state.get();
    if (!code || polling || TERMINAL.has(status) || status === 'signing-in') return;
    polling = true;
    const run = generation;
    try {
      const answer = await checkQrcode<QrStatusData>(client, { token: code.token });
      if (run !== generation || disposed) return;
      const before = state.get();
      switch (answer.status) {
        case 'new':
        case 'scanned': {
          const next = answer.status === 'new' ? 'waiting' : 'scanned';
          const number = answer.status === 'scanned' ? (answer.number ?? null) : null;
          const changed = before.status !== next || before.number !== number;
          interval = changed ? minMs : Math.min(maxMs, interval * factor);
          patch({ status: next, number, error: null });
          schedule(interval);
          break;
        }
        case 'confirmed':
          await redeem(code.token, run);
          break;
        case 'cancelled':
          patch({ status: 'cancelled', number: null, error: null });
          break;
        case 'expired':
          patch({ status: 'expired', number: null, error: null });
          break;
        default:
          // consumed: this browser redeemed it in another tab, or it was replayed.
          patch({ status: 'failed', number: null });
      }
    } catch (error) {
      if (run !== generation || disposed) return;
      if (isAccountError(error) && error.kind === 'response') fail(error);
      else {
        // A network failure or a timeout: keep the state, try again later.
        interval = Math.min(maxErrorMs, Math.max(minMs, interval) * 2);
        patch({ error: error as AccountError });
        schedule(interval);
      }
    } finally {
      polling = false;
    }
  }

  function onVisibility() {
    const hidden = visibility.hidden();
    patch({ paused: hidden });
    if (hidden) stopTimer();
    else {
      interval = minMs;
      void poll();
    }
  }

  async function fetchCode() {
    generation += 1;
    const run = generation;
    stopTimer();
    interval = minMs;
    patch({ status: 'loading', code: null, number: null, account: null, error: null });
    try {
      const code = await getQrcode<QrcodeData>(
        client,
        options.next === undefined ? {} : { next: options.next },
      );
      if (run !== generation || disposed) return;
      patch({ status: 'waiting', code });
      schedule(minMs);
    } catch (error) {
      if (run === generation && !disposed) patch({ status: 'failed', error: error as AccountError });
    }
  }

  return {
    getSnapshot: state.get,
    subscribe: state.subscribe,
    async start() {
      if (disposed || state.get().status !== 'idle') return;
      unlisten = visibility.subscribe(onVisibility);
      patch({ paused: visibility.hidden() });
      await fetchCode();
    },
    async refresh() {
      if (disposed) return;
      if (!unlisten) unlisten = visibility.subscribe(onVisibility);
      await fetchCode();
    },
    dispose() {
      disposed = true;
      generation += 1;
      stopTimer();
      unlisten?.();
      unlisten = undefined;
    },
  };
}
