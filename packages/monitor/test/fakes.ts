import { vi } from 'vitest';
import type { Clock, StorageLike } from '../src/environment';
import type { MonitorBatch, MonitorEvent } from '../src/events';
import { createMonitor, type Monitor, type MonitorOptions } from '../src/monitor';

type Listener = (event: never) => void;

/** An event target whose listeners the test fires by hand; `capture` marks capture-phase listeners. */
export class FakeTarget {
  readonly listeners: Array<{ type: string; listener: Listener; capture: boolean }> = [];

  addEventListener(type: string, listener: Listener, capture = false): void {
    this.listeners.push({ type, listener, capture });
  }

  removeEventListener(type: string, listener: Listener, capture = false): void {
    const index = this.listeners.findIndex(
      (entry) => entry.type === type && entry.listener === listener && entry.capture === capture,
    );
    if (index >= 0) this.listeners.splice(index, 1);
  }

  /** Calls the listeners of `type`; `phase: 'capture'` reaches only the capturing ones. */
  fire(type: string, event: object = {}, phase: 'target' | 'capture' = 'target'): void {
    for (const entry of [...this.listeners]) {
      if (entry.type !== type || (phase === 'capture' && !entry.capture)) continue;
      (entry.listener as (event: object) => void)(event);
    }
  }
}

export class FakeWindow extends FakeTarget {
  location = { href: 'https://accounts.example/login' };
  innerWidth = 1280;
  innerHeight = 720;
  history = {
    pushState: (_data: unknown, _unused: string, url?: string | URL | null) => this.go(url),
    replaceState: (_data: unknown, _unused: string, url?: string | URL | null) => this.go(url),
  };

  private go(url: string | URL | null | undefined): void {
    if (url) this.location.href = new URL(url, this.location.href).href;
  }
}

export class FakeDocument extends FakeTarget {
  visibilityState = 'visible';
  referrer = '';

  hide(): void {
    this.visibilityState = 'hidden';
    this.fire('visibilitychange');
  }

  show(): void {
    this.visibilityState = 'visible';
    this.fire('visibilitychange');
  }
}

export function memoryStorage(): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
  };
}

/** A transport that keeps what it is handed. */
export function recorder() {
  const sent: Array<{ batch: MonitorBatch; unloading: boolean }> = [];
  return {
    sent,
    transport: vi.fn((batch: MonitorBatch, context: { unloading: boolean }) => {
      sent.push({ batch, unloading: context.unloading });
    }),
    /** Every event sent so far, in order. */
    get events(): MonitorEvent[] {
      return sent.flatMap((entry) => entry.batch.events);
    },
  };
}

/** The (faked) global timers, handed in as the monitor's clock. */
export const fakeClock = (): Clock => ({
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
});

/** Random numbers in turn; the last one repeats. */
export const sequence =
  (...values: number[]) =>
  () =>
    values.length > 1 ? (values.shift() as number) : (values[0] ?? 0);

/**
 * A monitor on a fake page: every kind sampled (random 0), memory storage, a recording transport and
 * the fake timers. Options override.
 */
export function setup(options: Partial<MonitorOptions> = {}) {
  const window = new FakeWindow();
  const document = new FakeDocument();
  const storage = memoryStorage();
  const sink = recorder();
  const monitor: Monitor = createMonitor({
    app: 'web',
    window,
    document,
    navigator: null,
    storage,
    random: () => 0,
    clock: fakeClock(),
    transport: sink.transport,
    ...options,
  });
  return { monitor, window, document, storage, sink };
}

/** A funnel event: the smallest event every session samples. */
export const step = (monitor: Monitor) => monitor.funnel('method_shown', { method: 'mobile_code' });
