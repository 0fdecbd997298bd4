import { CodeType, ErrorCode, webPaths } from '@portico/account-sdk/protocol';
import { act } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { readableWait, useSendCode } from '../src';
import { fail, fakePassport, ok } from './support/fake-passport';
import { renderAccountHook } from './support/render';

/** Lets the fake transport's promises settle under fake timers. */
const flush = () => act(() => vi.advanceTimersByTimeAsync(0));

describe('useSendCode', () => {
  it('sends to the mobile with the purpose, then counts 60 s down once a second', async () => {
    vi.useFakeTimers();
    const passport = fakePassport({
      [webPaths.sendCode]: () => ok({ mobile: '+86******5678', expires_in: 600 }),
    });
    const { result } = renderAccountHook(
      () => useSendCode({ channel: 'mobile', type: CodeType.mobileLogin }),
      {
        client: passport.client,
      },
    );
    expect(result.current.cooldown).toBe(0);

    await act(() => result.current.send('+8613912345678'));
    await flush();
    expect(passport.to(webPaths.sendCode)[0]?.body).toMatchObject({ mobile: '+8613912345678', type: '24' });
    expect(result.current.cooldown).toBe(60);
    expect(result.current.data).toMatchObject({ mobile: '+86******5678' });

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current.cooldown).toBe(59);
    await act(() => vi.advanceTimersByTimeAsync(58_000));
    expect(result.current.cooldown).toBe(1);

    // A send during the cooldown does nothing.
    await act(() => result.current.send('+8613912345678'));
    expect(passport.to(webPaths.sendCode)).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current.cooldown).toBe(0);
    await act(() => result.current.send('+8613912345678'));
    await flush();
    expect(passport.to(webPaths.sendCode)).toHaveLength(2);
  });

  it("uses the passport's retry_time when it gives one, and e-mail when asked", async () => {
    vi.useFakeTimers();
    const passport = fakePassport({
      [webPaths.emailSendCode]: () => ok({ retry_time: 90, expires_in: 600 }),
    });
    const { result } = renderAccountHook(() => useSendCode({ channel: 'email', type: CodeType.emailLogin }), {
      client: passport.client,
    });
    await act(() => result.current.send('ada@example.com'));
    await flush();
    expect(passport.to(webPaths.emailSendCode)[0]?.body).toMatchObject({
      email: 'ada@example.com',
      type: '13',
    });
    expect(result.current.cooldown).toBe(90);
  });

  it('starts no cooldown after a failure, keeps the error, and lets the person try again', async () => {
    vi.useFakeTimers();
    let answer: unknown = fail(ErrorCode.deliveryFailed);
    const passport = fakePassport({ [webPaths.sendCode]: () => answer });
    const { result } = renderAccountHook(
      () => useSendCode({ channel: 'mobile', type: CodeType.mobileLogin }),
      {
        client: passport.client,
      },
    );
    await act(() => result.current.send('+8613912345678'));
    await flush();
    expect(result.current.error).toMatchObject({ error_code: ErrorCode.deliveryFailed });
    expect(result.current.cooldown).toBe(0);
    expect(result.current.isPending).toBe(false);

    answer = ok({ retry_time: 60, expires_in: 600 });
    await act(() => result.current.send('+8613912345678'));
    await flush();
    expect(passport.to(webPaths.sendCode)).toHaveLength(2);
    expect(result.current.error).toBeNull();
    expect(result.current.cooldown).toBe(60);
  });

  it('after CODE_COOLDOWN counts down from its retry_time and keeps the error (a send armed it elsewhere)', async () => {
    vi.useFakeTimers();
    const passport = fakePassport({
      [webPaths.sendCode]: () => fail(ErrorCode.codeCooldown, undefined, { retry_time: 1740 }),
    });
    const { result } = renderAccountHook(
      () => useSendCode({ channel: 'mobile', type: CodeType.mobileLogin }),
      { client: passport.client },
    );
    await act(() => result.current.send('+8613912345678'));
    await flush();
    expect(result.current.error).toMatchObject({ error_code: ErrorCode.codeCooldown, retry_time: 1740 });
    expect(result.current.cooldown).toBe(1740);
    expect(result.current.isPending).toBe(false);

    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(result.current.cooldown).toBe(1680);
    await act(() => result.current.send('+8613912345678'));
    expect(passport.to(webPaths.sendCode)).toHaveLength(1);
  });

  it('ignores a second send while the first is in flight', async () => {
    let release!: () => void;
    const passport = fakePassport({
      [webPaths.sendCode]: () =>
        new Promise((resolve) => {
          release = () => resolve(ok({ retry_time: 60, expires_in: 600 }));
        }),
    });
    const { result } = renderAccountHook(
      () => useSendCode({ channel: 'mobile', type: CodeType.mobileLogin }),
      {
        client: passport.client,
      },
    );
    let first!: Promise<void>;
    act(() => {
      first = result.current.send('+8613912345678');
      void result.current.send('+8613912345678');
    });
    await vi.waitFor(() => expect(passport.to(webPaths.sendCode)).toHaveLength(1));
    expect(result.current.isPending).toBe(true);
    release();
    await act(() => first);
    expect(passport.to(webPaths.sendCode)).toHaveLength(1);
  });
});

describe('readableWait', () => {
  it('is seconds below 2 minutes, whole minutes rounded up from there', () => {
    expect(readableWait(59)).toEqual({ seconds: 59 });
    expect(readableWait(119)).toEqual({ seconds: 119 });
    expect(readableWait(120)).toEqual({ minutes: 2 });
    expect(readableWait(121)).toEqual({ minutes: 3 });
    expect(readableWait(1800)).toEqual({ minutes: 30 });
  });
});
