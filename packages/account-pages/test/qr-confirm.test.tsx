import { ErrorCode, passportPaths, webPaths } from '@portico/account-sdk/protocol';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import {
  fail,
  fakePassport,
  ok,
  type Route,
  signedInAccount,
} from '../../account-react/test/support/fake-passport';
import { QrConfirmScreen } from '../src';
import { browserText } from '../src/qr/qr-confirm-screen';
import { renderInProvider } from './support/app';

/** The phone's confirmation screens against a scripted passport (the real server: e2e/tests/qr-login.spec.ts). */
const scan = (extra: Record<string, unknown> = {}) =>
  ok({
    status: 'scanned',
    browser: 'Chrome on Windows',
    place: { kind: 'public', network: '203.0.113.0/24' },
    created_at: Date.UTC(2026, 0, 2, 3, 4, 5),
    expires_in: 100,
    choices: [31, 47, 82],
    need_second_factor: false,
    ...extra,
  });

function renderScreen(routes: Record<string, Route>, signedIn = true) {
  const passport = fakePassport({
    [webPaths.accountInfo]: () => (signedIn ? ok(signedInAccount) : fail(ErrorCode.notLoggedIn)),
    ...routes,
  });
  const onClose = vi.fn();
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: <QrConfirmScreen token={'t'.repeat(43)} signInHref="/login?next=%2Fqr" onClose={onClose} />,
      },
    ],
    { initialEntries: ['/qr'] },
  );
  renderInProvider(passport.client, <RouterProvider router={router} />, 'en');
  return { passport, onClose };
}

describe('QrConfirmScreen', () => {
  it('asks a signed-out person to sign in first, and scans nothing', async () => {
    const { passport } = renderScreen({}, false);
    const link = await screen.findByRole('link', { name: 'Sign in to confirm' });
    expect(link.getAttribute('href')).toBe('/login?next=%2Fqr');
    expect(passport.to(webPaths.scanQrcode)).toHaveLength(0);
  });

  it('shows what asks; a wrong pick ends on "did not match", and Done closes with it', async () => {
    const { passport, onClose } = renderScreen({
      [webPaths.scanQrcode]: () => scan(),
      [webPaths.confirmQrcode]: () => fail(1908),
    });
    const user = userEvent.setup();
    expect(await screen.findByText('Chrome on Windows')).toBeTruthy();
    expect(screen.getByText('Internet address 203.0.113.0/24')).toBeTruthy();
    const pick = screen.getByRole('group', { name: 'Pick the number shown on the computer' });
    await user.click(within(pick, '47'));
    expect(passport.to(webPaths.confirmQrcode)[0]?.body).toMatchObject({
      token: 't'.repeat(43),
      number: '47',
    });
    expect(
      await screen.findByRole('heading', { name: 'The number did not match; the sign-in was cancelled' }),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalledWith('wrong');
  });

  it('cancels', async () => {
    const { passport, onClose } = renderScreen({
      [webPaths.scanQrcode]: () => scan(),
      [webPaths.confirmQrcode]: () => ok({ status: 'cancelled' }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel sign-in' }));
    expect(passport.to(webPaths.confirmQrcode)[0]?.body).toMatchObject({ cancel: '1' });
    expect(await screen.findByRole('heading', { name: 'The sign-in was cancelled' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalledWith('cancelled');
  });

  it('takes the two-step way when the account must prove its mobile: the SMS code, then the confirmation', async () => {
    const { passport } = renderScreen({
      [webPaths.scanQrcode]: () => scan({ need_second_factor: true }),
      [passportPaths.qrcodeScanQrcode]: () =>
        scan({ need_second_factor: true, ticket: 'k'.repeat(43), need_code: true, mobile: '+86******5678' }),
      [passportPaths.qrcodeConfirmByTicket]: (request) =>
        request.body.code === '123456' ? ok({ status: 'confirmed' }) : fail(ErrorCode.codeWrong),
    });
    const user = userEvent.setup();
    await user.click(
      within(await screen.findByRole('group', { name: 'Pick the number shown on the computer' }), '82'),
    );
    expect(await screen.findByText('We sent a code to +86******5678; enter it to confirm')).toBeTruthy();
    expect(passport.to(webPaths.confirmQrcode)).toHaveLength(0);
    const code = screen.getByRole('textbox', { name: /code/i });
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Confirm sign-in' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm sign-in' }));
    expect(
      await screen.findByRole('heading', { name: 'Confirmed: the computer is signing in' }),
    ).toBeTruthy();
    expect(passport.to(passportPaths.qrcodeConfirmByTicket).at(-1)?.body).toMatchObject({
      ticket: 'k'.repeat(43),
      number: '82',
      code: '123456',
    });
  });
});

/** The button named `name` inside `group`. */
function within(group: HTMLElement, name: string): HTMLElement {
  const button = [...group.querySelectorAll('button')].find((b) => b.textContent === name);
  if (!button) throw new Error(`no button ${name}`);
  return button;
}

describe('browserText', () => {
  it('says the passport’s summary in zh, proper names kept', () => {
    expect(browserText('Chrome on macOS', 'zh')).toBe('macOS 上的 Chrome');
    expect(browserText('Browser on unknown system', 'zh')).toBe('未知系统 上的 浏览器');
    expect(browserText('Unknown device', 'zh')).toBe('未知设备');
    expect(browserText('Chrome on macOS', 'en')).toBe('Chrome on macOS');
  });
});
