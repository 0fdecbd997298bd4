/**
 * The bridge between these pages and the native app that opens them in its webview — contract version
 * 1, documented in docs/app-bridge.md. The native app injects `window.PorticoNativeBridge`
 * (`{ version, postMessage(json) }`); the page sends `{ bridge: 'portico', version, id, method, params }`
 * as JSON and the app answers by calling `window.porticoBridgeReceive(json)` with
 * `{ id, ok: true, result }` or `{ id, ok: false, error: { code, message } }`. Without a bridge (a plain
 * mobile browser), or with another major version, every method falls back to what a browser can do.
 */

export const BRIDGE_VERSION = 1;
/** How long the page waits for the app to answer before it falls back. */
const ANSWER_TIMEOUT_MS = 10_000;

interface NativeBridge {
  /** The contract version the app implements (its major version must be BRIDGE_VERSION). */
  version: number;
  postMessage(message: string): void;
}

declare global {
  interface Window {
    PorticoNativeBridge?: NativeBridge;
    porticoBridgeReceive?: (message: string) => void;
  }
}

export type CloseResult = 'success' | 'confirmed' | 'cancelled' | 'wrong' | 'failed';

export interface AppBridge {
  /** True when a native app of a matching version answers; false in a plain browser. */
  readonly native: boolean;
  /**
   * Asks the app to put its session in the webview (the app copies its session cookie into the
   * webview's cookie store); `signed_in` is what the app says. In a browser: `null` (read the cookie).
   */
  getSession(): Promise<{ signed_in: boolean | null }>;
  /**
   * Hands back to the caller and closes the webview. In a browser: a `service` goes back through the
   * passport's redirect rule; without one, back in history (or the app's start page).
   */
  close(result: CloseResult, service?: string): Promise<void>;
  /** Opens the app's QR scanner; the scanned text, or null (cancelled, or no scanner in a browser). */
  scan(): Promise<string | null>;
  /** A short message: the app's toast, or the page's own (an aria-live status). */
  toast(message: string, kind?: 'info' | 'success' | 'error'): Promise<void>;
}

/** The page's own toast: a custom event the layout shows (src/layout.tsx). */
export const TOAST_EVENT = 'portico-toast';

function browserBridge(): AppBridge {
  return {
    native: false,
    getSession: async () => ({ signed_in: null }),
    async close(_result, service) {
      if (service)
        window.location.assign(
          `/passport/auth/login_success/?service=${encodeURIComponent(service)}&hand_back=1`,
        );
      else if (window.history.length > 1) window.history.back();
      else window.location.replace('/app/');
    },
    scan: async () => null,
    async toast(message, kind = 'info') {
      window.dispatchEvent(new CustomEvent(TOAST_EVENT, { detail: { message, kind } }));
    },
  };
}

function nativeBridge(native: NativeBridge): AppBridge {
  const pending = new Map<string, { resolve(value: unknown): void; reject(error: Error): void }>();
  let ids = 0;
  window.porticoBridgeReceive = (message) => {
    let answer: { id?: string; ok?: boolean; result?: unknown; error?: { message?: string } };
    try {
      answer = JSON.parse(message);
    } catch {
      return;
    }
    const waiting = answer.id === undefined ? undefined : pending.get(answer.id);
    if (!waiting || answer.id === undefined) return;
    pending.delete(answer.id);
    if (answer.ok) waiting.resolve(answer.result);
    else waiting.reject(new Error(answer.error?.message ?? 'the app refused'));
  };
  const call = <T>(method: string, params: Record<string, unknown> = {}) =>
    new Promise<T>((resolve, reject) => {
      ids += 1;
      const id = String(ids);
      const timer = window.setTimeout(() => {
        pending.delete(id);
        reject(new Error(`the app did not answer ${method}`));
      }, ANSWER_TIMEOUT_MS);
      pending.set(id, {
        resolve: (value) => {
          window.clearTimeout(timer);
          resolve(value as T);
        },
        reject: (error) => {
          window.clearTimeout(timer);
          reject(error);
        },
      });
      native.postMessage(JSON.stringify({ bridge: 'portico', version: BRIDGE_VERSION, id, method, params }));
    });
  const fallback = browserBridge();
  return {
    native: true,
    getSession: () =>
      call<{ signed_in?: unknown }>('getSession').then(
        (result) => ({ signed_in: typeof result?.signed_in === 'boolean' ? result.signed_in : null }),
        () => ({ signed_in: null }),
      ),
    close: (result, service) =>
      call<void>('close', { result, ...(service ? { service } : {}) }).catch(() =>
        fallback.close(result, service),
      ),
    scan: () =>
      call<{ text?: unknown }>('scan').then(
        (result) => (typeof result?.text === 'string' ? result.text : null),
        () => null,
      ),
    toast: (message, kind = 'info') =>
      call<void>('toast', { message, kind }).catch(() => fallback.toast(message, kind)),
  };
}

let bridge: AppBridge | undefined;

/** The bridge of this page: the native app's when one of version 1 is there, else the browser's. */
export function appBridge(): AppBridge {
  if (!bridge) {
    const native = window.PorticoNativeBridge;
    bridge =
      native &&
      Math.floor(Number(native.version)) === BRIDGE_VERSION &&
      typeof native.postMessage === 'function'
        ? nativeBridge(native)
        : browserBridge();
  }
  return bridge;
}
