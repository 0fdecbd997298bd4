import { describe, expect, it } from 'vitest';
import {
  type CooldownClock,
  cooldownOf,
  createSendCode,
  DEFAULT_CODE_COOLDOWN,
  type SendCodeSnapshot,
} from '../../src';
import { CodeType, ErrorCode, webPaths } from '../../src/protocol';
import { json } from '../support/passport-server';
import { formOf, passportFixture } from './fixture';

const { passport: fixture, client } = passportFixture((_, response) =>
  json(response, { message: 'success', data: { mobile: '+86******5678', expires_in: 600 } }),
);

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
    expect(formOf(fixture().last)).toMatchObject({ mobile: '+8613912345678', type: '24' });
    expect(seen.map((s) => s.status)).toEqual(['sending', 'sent']);
    expect(flow.getSnapshot()).toMatchObject({ cooldown: DEFAULT_CODE_COOLDOWN, error: null });
    expect(flow.getSnapshot().data).toMatchObject({ mobile: '+86******5678' });

    clock.advance(1000);
    expect(flow.getSnapshot().cooldown).toBe(59);
    clock.advance(58_000);
    expect(flow.getSnapshot().cooldown).toBe(1);

    await flow.send('+8613912345678');
    expect(fixture().requests).toHaveLength(1);

    clock.advance(1000);
    expect(flow.getSnapshot().cooldown).toBe(0);
    expect(clock.pending()).toBe(0);
    await flow.send('+8613912345678');
    expect(fixture().requests).toHaveLength(2);
  });

  it("uses the passport's retry_time, and sends e-mail codes to the e-mail path", async () => {
    fixture().handle((_, response) => json(response, { message: 'success', data: { retry_time: 90 } }));
    const flow = createSendCode(client(), {
      channel: 'email',
      type: CodeType.emailLogin,
      clock: manualClock(),
    });
    await flow.send('ada@example.com');
    expect(fixture().last.path).toBe(webPaths.emailSendCode);
    expect(formOf(fixture().last).email).toBe('ada@example.com');
    expect(flow.getSnapshot().cooldown).toBe(90);
    flow.dispose();
  });

  it('a failure is in the snapshot, never a rejection, and starts no cooldown', async () => {
    fixture().handle((_, response) =>
      json(response, {
        message: 'error',
        data: { error_code: ErrorCode.deliveryFailed, description: 'not delivered' },
      }),
    );
    const clock = manualClock();
    const flow = createSendCode(client(), { channel: 'mobile', type: CodeType.mobileLogin, clock });
    await expect(flow.send('+8613912345678')).resolves.toBeUndefined();
    expect(flow.getSnapshot()).toMatchObject({ status: 'failed', cooldown: 0 });
    expect(flow.getSnapshot().error?.error_code).toBe(ErrorCode.deliveryFailed);
    expect(clock.pending()).toBe(0);
    flow.reset();
    expect(flow.getSnapshot()).toMatchObject({ status: 'idle', error: null });
    // The person may try again at once.
    await flow.send('+8613912345678');
    expect(fixture().requests).toHaveLength(2);
  });

  it('CODE_COOLDOWN counts down from its retry_time, keeps the error, and sends nothing until it ends', async () => {
    // The number's cooldown was armed by someone else's send: the passport says how long is left.
    fixture().handle((_, response) =>
      json(response, {
        message: 'error',
        data: { error_code: ErrorCode.codeCooldown, description: 'wait', retry_time: 1740 },
      }),
    );
    const clock = manualClock();
    const flow = createSendCode(client(), { channel: 'mobile', type: CodeType.mobileLogin, clock });
    const seen: SendCodeSnapshot[] = [];
    flow.subscribe(() => seen.push(flow.getSnapshot()));

    await flow.send('+8613912345678');
    expect(seen.map((s) => [s.status, s.cooldown])).toEqual([
      ['sending', 0],
      ['failed', 1740],
    ]);
    expect(flow.getSnapshot().error).toMatchObject({ error_code: ErrorCode.codeCooldown, retry_time: 1740 });
    expect(flow.getSnapshot().data).toBeUndefined();

    clock.advance(1000);
    expect(flow.getSnapshot().cooldown).toBe(1739);
    await flow.send('+8613912345678');
    expect(fixture().requests).toHaveLength(1);

    // reset() clears the error; the passport's cooldown, and so ours, keeps running.
    flow.reset();
    expect(flow.getSnapshot()).toMatchObject({ status: 'idle', error: null, cooldown: 1739 });

    fixture().handle((_, response) => json(response, { message: 'success', data: { retry_time: 60 } }));
    clock.advance(1_739_000);
    expect(flow.getSnapshot().cooldown).toBe(0);
    expect(clock.pending()).toBe(0);
    await flow.send('+8613912345678');
    expect(fixture().requests).toHaveLength(2);
    expect(flow.getSnapshot()).toMatchObject({ status: 'sent', error: null, cooldown: 60 });
    flow.dispose();
  });

  it('CODE_COOLDOWN without a positive retry_time starts no cooldown (nothing to count from)', async () => {
    for (const retry_time of [undefined, 0, -5, '90']) {
      fixture().handle((_, response) =>
        json(response, {
          message: 'error',
          data: { error_code: ErrorCode.codeCooldown, description: 'wait', retry_time },
        }),
      );
      const clock = manualClock();
      const flow = createSendCode(client(), { channel: 'email', type: CodeType.emailLogin, clock });
      await flow.send('ada@example.com');
      expect(flow.getSnapshot(), String(retry_time)).toMatchObject({ status: 'failed', cooldown: 0 });
      expect(clock.pending()).toBe(0);
    }
  });

  it('only CODE_COOLDOWN is read for a wait: another failure carrying retry_time starts none', async () => {
    fixture().handle((_, response) =>
      json(response, {
        message: 'error',
        data: { error_code: ErrorCode.codeSendLimit, description: 'limit', retry_time: 600 },
      }),
    );
    const flow = createSendCode(client(), {
      channel: 'mobile',
      type: CodeType.mobileLogin,
      clock: manualClock(),
    });
    await flow.send('+8613912345678');
    expect(flow.getSnapshot()).toMatchObject({ status: 'failed', cooldown: 0 });
  });

  it('a double click in one tick sends one code', async () => {
    const flow = createSendCode(client(), {
      channel: 'mobile',
      type: CodeType.mobileLogin,
      clock: manualClock(),
    });
    await Promise.all([flow.send('+8613912345678'), flow.send('+8613912345678')]);
    expect(fixture().requests).toHaveLength(1);
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
