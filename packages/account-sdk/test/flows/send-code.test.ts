import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type CooldownClock,
  cooldownOf,
  createAccountClient,
  createSendCode,
  DEFAULT_CODE_COOLDOWN,
  type SendCodeSnapshot,
} from '../../src';
import { CodeType, ErrorCode, webPaths } from '../../src/protocol';
import { cookieJar } from '../support/cookie-jar';
import { json, type Passport, startPassport } from '../support/passport-server';
import { formOf } from './form-of';

let passport: Passport;
beforeAll(async () => {
  passport = await startPassport();
});
afterAll(() => passport.close());
afterEach(() => vi.useRealTimers());
beforeEach(() => {
  passport.requests.length = 0;
  passport.handle((_, response) =>
    json(response, { message: 'success', data: { mobile: '+86******5678', expires_in: 600 } }),
  );
});

const client = () => createAccountClient({ aid: 1128, baseUrl: passport.url, document: cookieJar() });

/** A hand-driven clock: time moves only when the test says, so nothing depends on the machine's speed. */
function manualClock() {
  let now = 1_000_000;
  const timers = new Map<number, { at: number; run: () => void }>();
  let ids = 0;
  const clock: CooldownClock & { advance(ms: number): void; pending(): number } = {
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
    pending: () => timers.size,
  };
  return clock;
}

describe('createSendCode', () => {
  it('sends to the mobile with the purpose, then counts the cooldown down once a second', async () => {
    const clock = manualClock();
    const flow = createSendCode(client(), { channel: 'mobile', type: CodeType.mobileLogin, clock });
    const seen: SendCodeSnapshot[] = [];
    flow.subscribe(() => seen.push(flow.getSnapshot()));

    await flow.send('+8613912345678');
    expect(formOf(passport.last)).toMatchObject({ mobile: '+8613912345678', type: '24' });
    expect(seen.map((s) => s.status)).toEqual(['sending', 'sent']);
    expect(flow.getSnapshot()).toMatchObject({ cooldown: DEFAULT_CODE_COOLDOWN, error: null });
    expect(flow.getSnapshot().data).toMatchObject({ mobile: '+86******5678' });

    clock.advance(1000);
    expect(flow.getSnapshot().cooldown).toBe(59);
    clock.advance(58_000);
    expect(flow.getSnapshot().cooldown).toBe(1);

    await flow.send('+8613912345678');
    expect(passport.requests).toHaveLength(1);

    clock.advance(1000);
    expect(flow.getSnapshot().cooldown).toBe(0);
    expect(clock.pending()).toBe(0);
    await flow.send('+8613912345678');
    expect(passport.requests).toHaveLength(2);
  });

  it("uses the passport's retry_time, and sends e-mail codes to the e-mail path", async () => {
    passport.handle((_, response) => json(response, { message: 'success', data: { retry_time: 90 } }));
    const flow = createSendCode(client(), {
      channel: 'email',
      type: CodeType.emailLogin,
      clock: manualClock(),
    });
    await flow.send('ada@example.com');
    expect(passport.last.path).toBe(webPaths.emailSendCode);
    expect(formOf(passport.last).email).toBe('ada@example.com');
    expect(flow.getSnapshot().cooldown).toBe(90);
    flow.dispose();
  });

  it('a failure is in the snapshot, never a rejection, and starts no cooldown', async () => {
    passport.handle((_, response) =>
      json(response, {
        message: 'error',
        data: { error_code: ErrorCode.codeCooldown, description: 'wait' },
      }),
    );
    const flow = createSendCode(client(), {
      channel: 'mobile',
      type: CodeType.mobileLogin,
      clock: manualClock(),
    });
    await expect(flow.send('+8613912345678')).resolves.toBeUndefined();
    expect(flow.getSnapshot()).toMatchObject({ status: 'failed', cooldown: 0 });
    expect(flow.getSnapshot().error?.error_code).toBe(ErrorCode.codeCooldown);
    flow.reset();
    expect(flow.getSnapshot()).toMatchObject({ status: 'idle', error: null });
  });

  it('a double click in one tick sends one code', async () => {
    const flow = createSendCode(client(), {
      channel: 'mobile',
      type: CodeType.mobileLogin,
      clock: manualClock(),
    });
    await Promise.all([flow.send('+8613912345678'), flow.send('+8613912345678')]);
    expect(passport.requests).toHaveLength(1);
    flow.dispose();
  });
});

describe('cooldownOf', () => {
  it('reads a positive retry_time, rounded up, else the default', () => {
    expect(cooldownOf({ retry_time: 12.2 })).toBe(13);
    expect(cooldownOf({ retry_time: 0 })).toBe(DEFAULT_CODE_COOLDOWN);
    expect(cooldownOf({ retry_time: '30' })).toBe(DEFAULT_CODE_COOLDOWN);
    expect(cooldownOf(null)).toBe(DEFAULT_CODE_COOLDOWN);
  });
});
