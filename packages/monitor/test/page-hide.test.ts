import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup, step } from './fakes';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the page-hide flush', () => {
  it('sends what is queued at once, marked unloading, when the page is hidden', () => {
    const { monitor, sink, document } = setup();
    for (let i = 0; i < 25; i++) step(monitor);
    expect(sink.sent.map((s) => s.unloading)).toEqual([false]);
    document.hide();
    expect(sink.sent.map((s) => [s.batch.events.length, s.unloading])).toEqual([
      [20, false],
      [5, true],
    ]);
    vi.advanceTimersByTime(1000);
    expect(sink.sent).toHaveLength(2);
  });

  it('sends on pagehide too (a page closed without being hidden first)', () => {
    const { monitor, sink, window } = setup();
    step(monitor);
    window.fire('pagehide');
    expect(sink.sent).toMatchObject([{ unloading: true }]);
  });

  it('does not send when the page becomes visible', () => {
    const { monitor, sink, document } = setup();
    step(monitor);
    document.show();
    expect(sink.sent).toEqual([]);
  });

  it('sends events recorded after the page was hidden (web vitals report then) in the same task, together', async () => {
    const { monitor, sink, document } = setup();
    document.hide();
    step(monitor);
    step(monitor);
    expect(sink.sent).toEqual([]);
    await Promise.resolve();
    expect(sink.sent.map((s) => [s.batch.events.length, s.unloading])).toEqual([[2, true]]);
  });

  it('goes back to waiting 1000 ms once the page is visible again', async () => {
    const { monitor, sink, document, window } = setup();
    document.hide();
    document.show();
    step(monitor);
    await Promise.resolve();
    expect(sink.sent).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(sink.sent).toMatchObject([{ unloading: false }]);
    // Back from the back-forward cache: pageshow while visible.
    window.fire('pagehide');
    window.fire('pageshow');
    step(monitor);
    await Promise.resolve();
    expect(sink.sent).toHaveLength(1);
  });

  it('treats a page that starts hidden (a background tab) as hidden', async () => {
    const { document } = setup();
    document.visibilityState = 'hidden';
    const { monitor, sink } = setup({ document });
    step(monitor);
    await Promise.resolve();
    expect(sink.sent).toMatchObject([{ unloading: true }]);
  });
});
