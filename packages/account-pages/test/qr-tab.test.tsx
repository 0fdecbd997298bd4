import { ErrorCode, webPaths } from '@portico/account-sdk/protocol';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { renderAuthApp } from './support/app';

/** The QR tab of the sign-in screen against a scripted passport; the fake clock moves the polls. */
function qrPassport(states: string[]) {
  let codes = 0;
  return fakePassport({
    [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
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
      return ok({ status, expires_in: 100, ...(status === 'scanned' ? { number: 64 } : {}) });
    },
    [webPaths.webLogin]: () => ok({ ...signedInAccount, redirect_url: '/x' }),
  });
}

const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

afterEach(() => {
  vi.useRealTimers();
});

describe('the QR tab', () => {
  it('shows the code, then the number to pick on the phone, then goes on signed in', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const passport = qrPassport(['scanned', 'confirmed']);
    const { router } = renderAuthApp(passport.client, '/login?next=/x', {}, 'en');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('tab', { name: 'QR code' }));
    const image = await screen.findByRole('img', { name: 'Sign-in QR code' });
    expect(image.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(passport.to(webPaths.getQrcode)[0]?.query.next).toBe('/x');
    expect(screen.getByRole('status').textContent).toContain('Scan the QR code');

    await tick(1000);
    expect(await screen.findByText('Scanned — confirm on your phone')).toBeTruthy();
    expect(screen.getByText('64')).toBeTruthy();

    await tick(1000);
    await screen.findByText('landed');
    expect(router.state.location.pathname).toBe('/x');
    expect(passport.to(webPaths.webLogin)[0]?.body).toMatchObject({ token: 'token-1' });
  });

  it('says when the phone cancelled, and refreshes with one click', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const passport = qrPassport(['cancelled']);
    renderAuthApp(passport.client, '/login', {}, 'zh');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('tab', { name: '扫码登录' }));
    await screen.findByRole('img', { name: '登录二维码' });
    await tick(1000);
    expect(await screen.findByText('已在手机上取消登录')).toBeTruthy();
    expect(screen.queryByRole('img', { name: '登录二维码' })).toBeNull();
    await user.click(screen.getByRole('button', { name: '刷新二维码' }));
    await screen.findByRole('img', { name: '登录二维码' });
    expect(passport.to(webPaths.getQrcode)).toHaveLength(2);
  });
});
