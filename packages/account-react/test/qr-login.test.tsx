import { webPaths } from '@portico/account-sdk/protocol';
import { act } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sessionQueryKey, useQrLogin } from '../src';
import { fakePassport, ok, signedInAccount } from './support/fake-passport';
import { renderAccountHook } from './support/render';

const flush = () => act(() => vi.advanceTimersByTimeAsync(0));

function qrPassport(states: string[]) {
  let codes = 0;
  return fakePassport({
    [webPaths.getQrcode]: () => {
      codes += 1;
      return ok({
        token: `token-${codes}`,
        qrcode_index_url: `https://passport.test/app/qr?token=token-${codes}`,
        expires_in: 120,
        expires_at: Date.now() + 120_000,
      });
    },
    [webPaths.checkQrconnect]: () => {
      const status = states.shift() ?? 'new';
      return ok({ status, expires_in: 100, ...(status === 'scanned' ? { number: 37 } : {}) });
    },
    [webPaths.webLogin]: () => ok({ ...signedInAccount, redirect_url: '/workbench' }),
  });
}

describe('useQrLogin', () => {
  it('shows the code, then the number, and signs in: the answer becomes the session', async () => {
    vi.useFakeTimers();
    const passport = qrPassport(['new', 'scanned', 'confirmed']);
    const { result, queryClient } = renderAccountHook(() => useQrLogin({ next: '/workbench' }), {
      client: passport.client,
    });
    await flush();
    expect(result.current.status).toBe('waiting');
    expect(result.current.code?.qrcode_index_url).toBe('https://passport.test/app/qr?token=token-1');
    expect(passport.to(webPaths.getQrcode)[0]?.query.next).toBe('/workbench');

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current.status).toBe('waiting');
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(result.current).toMatchObject({ status: 'scanned', number: 37 });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await flush();
    expect(result.current.status).toBe('signed-in');
    expect(passport.to(webPaths.webLogin)[0]?.body).toMatchObject({ token: 'token-1' });
    expect(result.current.account?.redirect_url).toBe('/workbench');
    expect(queryClient.getQueryData(sessionQueryKey)).toMatchObject({ user_id: '42' });
    vi.useRealTimers();
  });

  it('refreshes an expired code with one call, and stays idle while disabled', async () => {
    vi.useFakeTimers();
    const passport = qrPassport(['expired']);
    const { result, rerender } = renderAccountHook(() => useQrLogin(), { client: passport.client });
    await flush();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current.status).toBe('expired');
    await act(() => result.current.refresh());
    expect(result.current.status).toBe('waiting');
    expect(result.current.code?.token).toBe('token-2');
    rerender();

    const idle = qrPassport([]);
    const disabled = renderAccountHook(() => useQrLogin({ enabled: false }), { client: idle.client });
    await flush();
    expect(disabled.result.current.status).toBe('idle');
    expect(idle.received).toHaveLength(0);
    vi.useRealTimers();
  });
});
