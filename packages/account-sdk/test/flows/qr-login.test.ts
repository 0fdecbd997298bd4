import { describe, expect, it, vi } from 'vitest';
import { createQrLogin, type PageVisibility, type QrLoginClock, type QrStatusData } from '../../src';
import { webPaths } from '../../src/protocol';
import { json } from '../support/passport-server';
import { formOf, passportFixture } from './fixture';

/**
 * createQrLogin against a scripted passport: the answers of `check_qrconnect` come from `polls`, in
 * order; time moves only by the hand-driven clock, and the page's visibility is switched by hand.
 */
let polls: (QrStatusData | 'network' | { error_code: number })[] = [];
let codes = 0;
let expiresAt = 1_000_000 + 120_000;
const { passport: fixture, client } = passportFixture((request, response) => {
  if (request.path === webPaths.getQrcode) {
    codes += 1;
    return json(response, {
      message: 'success',
      data: {
        token: `token-${codes}`,
        qrcode_index_url: `http://localhost/app/qr?token=token-${codes}`,
        expires_in: 120,
        expires_at: expiresAt,
      },
    });
  }
  if (request.path === webPaths.checkQrconnect) {
    const next = polls.shift() ?? { status: 'new', expires_in: 100 };
    if (next === 'network') {
      response.destroy();
      return;
    }
    if ('error_code' in next)
      return json(response, { message: 'error', data: { ...next, description: 'refused' } });
    return json(response, { message: 'success', data: next });
  }
  if (request.path === webPaths.webLogin)
    return json(response, { message: 'success', data: { user_id: '7', redirect_url: '/workbench' } });
  return json(response, { message: 'error', data: { error_code: 1005, description: 'not found' } }, 404);
});

function manualClock() {
  let now = 1_000_000;
  const timers = new Map<number, { at: number; run: () => void }>();
  let ids = 0;
  const clock: QrLoginClock & { advance(ms: number): void; delays(): number[] } = {
    now: () => now,
    setTimeout(run, ms) {
      ids += 1;
      timers.set(ids, { at: now + ms, run });
      return ids;
    },
    clearTimeout: (id) => void timers.delete(id as number),
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = end;
    },
    delays: () => [...timers.values()].map((t) => t.at - now),
  };
  return clock;
}

function manualVisibility() {
  let hidden = false;
  const listeners = new Set<() => void>();
  const visibility: PageVisibility & { set(hidden: boolean): void } = {
    hidden: () => hidden,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      hidden = next;
      for (const listener of listeners) listener();
    },
  };
  return visibility;
}

const checks = () => fixture().requests.filter((r) => r.path === webPaths.checkQrconnect).length;

function setup() {
  polls = [];
  const clock = manualClock();
  const visibility = manualVisibility();
  const flow = createQrLogin(client(), { next: '/workbench', clock, visibility });
  /** Moves the clock to the next poll and waits for its answer to land. */
  const pollOnce = async () => {
    const before = checks();
    const snapshot = flow.getSnapshot();
    clock.advance(Math.min(...clock.delays()));
    await vi.waitFor(() => {
      expect(checks()).toBe(before + 1);
      expect(flow.getSnapshot()).not.toBe(snapshot);
    });
  };
  return { clock, visibility, flow, pollOnce };
}

describe('createQrLogin', () => {
  it('does nothing until started; then shows the code, the number once scanned, and signs in on confirmation', async () => {
    const { clock, flow, pollOnce } = setup();
    expect(fixture().requests).toHaveLength(0);
    expect(flow.getSnapshot().status).toBe('idle');

    await flow.start();
    expect(fixture().last.path).toBe(webPaths.getQrcode);
    expect(fixture().last.query.get('next')).toBe('/workbench');
    expect(flow.getSnapshot()).toMatchObject({ status: 'waiting', number: null });
    const token = flow.getSnapshot().code?.token;
    expect(clock.delays()).toEqual([1000]);

    // Nothing changes: the interval backs off (1 s → 1.5 s → 2.25 s).
    polls = [
      { status: 'new', expires_in: 119 },
      { status: 'new', expires_in: 117 },
    ];
    await pollOnce();
    expect(fixture().last.query.get('token')).toBe(token);
    expect(clock.delays()).toEqual([1500]);
    await pollOnce();
    expect(clock.delays()).toEqual([2250]);

    // Scanned: the number to show, and quick polls again.
    polls = [{ status: 'scanned', number: 42, expires_in: 110 }];
    await pollOnce();
    expect(flow.getSnapshot()).toMatchObject({ status: 'scanned', number: 42 });
    expect(clock.delays()).toEqual([1000]);

    polls = [{ status: 'confirmed', expires_in: 100 }];
    await pollOnce();
    await vi.waitFor(() => expect(flow.getSnapshot().status).toBe('signed-in'));
    expect(fixture().last.path).toBe(webPaths.webLogin);
    expect(formOf(fixture().last).token).toBe(token);
    expect(flow.getSnapshot().account).toMatchObject({ user_id: '7', redirect_url: '/workbench' });
    expect(clock.delays()).toEqual([]);
    flow.dispose();
  });

  it('stops polling while the page is hidden and polls at once when it is shown', async () => {
    const { clock, visibility, flow } = setup();
    await flow.start();
    visibility.set(true);
    expect(flow.getSnapshot().paused).toBe(true);
    expect(clock.delays()).toEqual([]);
    clock.advance(60_000);
    expect(checks()).toBe(0);

    polls = [{ status: 'scanned', number: 17, expires_in: 50 }];
    visibility.set(false);
    await vi.waitFor(() => expect(flow.getSnapshot()).toMatchObject({ status: 'scanned', number: 17 }));
    expect(flow.getSnapshot().paused).toBe(false);
    expect(checks()).toBe(1);
    flow.dispose();
  });

  it('ends on expiry and gets a new code with one refresh', async () => {
    const { flow, pollOnce } = setup();
    await flow.start();
    const first = flow.getSnapshot().code?.token;
    polls = [{ status: 'expired', expires_in: 0 }];
    await pollOnce();
    expect(flow.getSnapshot().status).toBe('expired');

    await flow.refresh();
    expect(flow.getSnapshot().status).toBe('waiting');
    expect(flow.getSnapshot().code?.token).not.toBe(first);
    flow.dispose();
  });

  it('never waits past the code’s expiry to poll', async () => {
    const { clock, flow, pollOnce } = setup();
    expiresAt = 1_000_000 + 1_200;
    try {
      await flow.start();
      expect(clock.delays()).toEqual([1000]);
      polls = [{ status: 'new', expires_in: 1 }];
      await pollOnce();
      // 1.5 s would pass the expiry (200 ms away): the next poll comes 50 ms after it instead.
      expect(clock.delays()).toEqual([250]);
      polls = [{ status: 'expired', expires_in: 0 }];
      await pollOnce();
      expect(flow.getSnapshot().status).toBe('expired');
    } finally {
      expiresAt = 1_000_000 + 120_000;
      flow.dispose();
    }
  });

  it('says so when the phone cancels, and when the passport refuses (QR_EXPIRED is an expiry)', async () => {
    const cancelled = setup();
    await cancelled.flow.start();
    polls = [{ status: 'cancelled', expires_in: 50 }];
    await cancelled.pollOnce();
    expect(cancelled.flow.getSnapshot().status).toBe('cancelled');
    expect(cancelled.clock.delays()).toEqual([]);
    cancelled.flow.dispose();

    const refused = setup();
    await refused.flow.start();
    polls = [{ error_code: 1901 }];
    await refused.pollOnce();
    expect(refused.flow.getSnapshot().status).toBe('expired');
    refused.flow.dispose();

    const other = setup();
    await other.flow.start();
    polls = [{ error_code: 1904 }];
    await other.pollOnce();
    expect(other.flow.getSnapshot()).toMatchObject({ status: 'failed' });
    expect(other.flow.getSnapshot().error?.error_code).toBe(1904);
    other.flow.dispose();
  });

  it('keeps its state through a network failure and backs off', async () => {
    const { clock, flow, pollOnce } = setup();
    await flow.start();
    polls = ['network'];
    await pollOnce();
    expect(flow.getSnapshot().status).toBe('waiting');
    expect(flow.getSnapshot().error?.kind).toBe('network');
    expect(clock.delays()).toEqual([2000]);
    polls = [{ status: 'scanned', number: 55, expires_in: 80 }];
    await pollOnce();
    expect(flow.getSnapshot()).toMatchObject({ status: 'scanned', number: 55, error: null });
    flow.dispose();
    expect(clock.delays()).toEqual([]);
  });
});
