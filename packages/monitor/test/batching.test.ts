import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BATCH_SIZE, FLUSH_WAIT_MS } from '../src/index';
import { setup, step } from './fakes';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-25T10:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('batching', () => {
  it('follows the spec: 20 events a batch, sent 1000 ms after the first is queued', () => {
    expect([BATCH_SIZE, FLUSH_WAIT_MS]).toEqual([20, 1000]);
  });

  it('sends a queued event 1000 ms after it was queued, not before', () => {
    const { monitor, sink } = setup();
    step(monitor);
    vi.advanceTimersByTime(999);
    expect(sink.sent).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(sink.sent).toHaveLength(1);
    expect(sink.sent[0]).toMatchObject({
      unloading: false,
      batch: { v: 1, app: 'web', flavour: 'web', seq: 0 },
    });
    expect(sink.events).toMatchObject([{ kind: 'funnel', step: 'method_shown', method: 'mobile_code' }]);
  });

  it('counts the wait from the first queued event: later events do not postpone the batch', () => {
    const { monitor, sink } = setup();
    step(monitor);
    vi.advanceTimersByTime(600);
    step(monitor);
    vi.advanceTimersByTime(400);
    expect(sink.sent).toHaveLength(1);
    expect(sink.sent[0]?.batch.events).toHaveLength(2);
  });

  it('sends the 20th event at once and starts a new wait for the 21st', () => {
    const { monitor, sink } = setup();
    for (let i = 0; i < 21; i++) step(monitor);
    expect(sink.sent).toHaveLength(1);
    expect(sink.sent[0]?.batch.events).toHaveLength(20);
    vi.advanceTimersByTime(1000);
    expect(sink.sent.map((s) => [s.batch.seq, s.batch.events.length])).toEqual([
      [0, 20],
      [1, 1],
    ]);
  });

  it('flush() sends what is queued in batches of 20 and cancels the wait', () => {
    const { monitor, sink } = setup({ sampling: {} });
    const events = [...Array(45)].map(() => monitor.record('js_error', jsError()));
    expect(events.every(Boolean)).toBe(true);
    expect(sink.sent).toHaveLength(2);
    monitor.flush();
    expect(sink.sent.map((s) => s.batch.events.length)).toEqual([20, 20, 5]);
    vi.advanceTimersByTime(5000);
    expect(sink.sent).toHaveLength(3);
  });

  it('stamps each event with the clock, the page and its sampling rate, and each batch with the session', () => {
    const { monitor, sink } = setup();
    step(monitor);
    monitor.flush();
    expect(sink.sent[0]?.batch).toEqual({
      v: 1,
      session: monitor.session.id,
      app: 'web',
      flavour: 'web',
      seq: 0,
      sent_at: Date.parse('2026-11-25T10:00:00Z'),
      events: [
        {
          kind: 'funnel',
          step: 'method_shown',
          method: 'mobile_code',
          time: Date.parse('2026-11-25T10:00:00Z'),
          page: '/login',
          rate: 1,
        },
      ],
    });
    expect(monitor.session.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('a transport that throws or rejects loses its batch, never the page, and later batches still go', async () => {
    const transport = vi
      .fn()
      .mockImplementationOnce(() => {
        throw new Error('offline');
      })
      .mockImplementationOnce(() => Promise.reject(new Error('offline')))
      .mockImplementation(() => undefined);
    const { monitor } = setup({ transport });
    for (const _ of [1, 2, 3]) {
      expect(step(monitor)).toBe(true);
      vi.advanceTimersByTime(1000);
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(transport).toHaveBeenCalledTimes(3);
  });

  it('drops events past maxEvents a page load (an error loop cannot flood the collector)', () => {
    const { monitor, sink } = setup({ maxEvents: 3 });
    const queued = [...Array(5)].map(() => step(monitor));
    monitor.flush();
    expect(queued).toEqual([true, true, true, false, false]);
    expect(sink.events).toHaveLength(3);
  });

  it('close() sends what is queued, stops the timers and the page-hide listeners, and drops later events', () => {
    const { monitor, sink, window, document } = setup();
    step(monitor);
    monitor.close();
    expect(sink.sent).toHaveLength(1);
    expect(step(monitor)).toBe(false);
    vi.advanceTimersByTime(5000);
    expect(sink.sent).toHaveLength(1);
    expect(window.listeners).toEqual([]);
    expect(document.listeners).toEqual([]);
  });
});

function jsError() {
  return { source: 'error' as const, name: 'Error', message: 'boom', stack: '', fingerprint: '00000000' };
}
