import type { Collector, Monitor } from '../monitor';

const MESSAGE_MAX = 1000;
const STACK_MAX = 4000;

/** FNV-1a, 32 bits, as 8 hex digits: short, stable, and enough to tell a session's errors apart. */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

interface ErrorEventLike {
  message?: string;
  error?: unknown;
  filename?: string;
  lineno?: number;
  colno?: number;
}

function describe(thrown: unknown, fallback: string): { name: string; message: string; stack: string } {
  if (thrown instanceof Error || (typeof thrown === 'object' && thrown !== null && 'message' in thrown)) {
    const error = thrown as Partial<Error>;
    return {
      name: typeof error.name === 'string' ? error.name : 'Error',
      message: String(error.message ?? fallback),
      stack: typeof error.stack === 'string' ? error.stack : '',
    };
  }
  if (thrown === undefined || thrown === null) return { name: 'Error', message: fallback, stack: '' };
  // A thrown string is the message; an object without one only says its type.
  return { name: typeof thrown, message: typeof thrown === 'string' ? thrown : fallback, stack: '' };
}

/** Records one error, scrubbed, if its fingerprint is new to the session. */
function report(monitor: Monitor, source: 'error' | 'unhandledrejection', thrown: unknown, where: string) {
  if (!monitor.sampled('js_error')) return;
  const described = describe(thrown, source === 'error' ? 'Script error.' : 'Unhandled rejection');
  const name = monitor.scrubText(described.name, 100);
  const message = monitor.scrubText(described.message, MESSAGE_MAX);
  const stack = monitor.scrubText(described.stack || where, STACK_MAX);
  const firstFrame = stack.split('\n').find((line) => /:\d+:\d+/.test(line)) ?? '';
  const print = fingerprint(`${source}\n${name}\n${message}\n${firstFrame.trim()}`);
  if (!monitor.firstSeen(print)) return;
  monitor.record('js_error', { source, name, message, stack, fingerprint: print });
}

/**
 * Records uncaught errors and unhandled promise rejections with their stacks, once per fingerprint
 * (name, message, first frame) and session, so an error thrown in a loop is one event.
 */
export function jsErrors(): Collector {
  return {
    name: 'js-errors',
    install(monitor) {
      const window = monitor.environment.window;
      if (!window || !monitor.sampled('js_error')) return () => {};
      const onError = (raw: Event) => {
        const event = raw as ErrorEventLike;
        // Resource load errors reach the window only when capturing; they are resourceErrors()'s.
        if (event.message === undefined && event.error === undefined) return;
        const where = event.filename ? `${event.filename}:${event.lineno ?? 0}:${event.colno ?? 0}` : '';
        report(monitor, 'error', event.error ?? { name: 'Error', message: event.message }, where);
      };
      const onRejection = (event: Event) => {
        report(monitor, 'unhandledrejection', (event as { reason?: unknown }).reason, '');
      };
      window.addEventListener('error', onError);
      window.addEventListener('unhandledrejection', onRejection);
      return () => {
        window.removeEventListener('error', onError);
        window.removeEventListener('unhandledrejection', onRejection);
      };
    },
  };
}
