import { webPaths } from '@portico/account-sdk/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { AccountSecurity } from '../src';
import { renderInProvider } from './support/app';

/** The authenticator app and recovery code sections of the security page (docs/factors.md). */

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i + 2}-fghjk`);

function factorPassport() {
  const state = { totp: false, codes: 0 };
  const factors = () => ({
    totp: { enabled: state.totp, confirmed_at: state.totp ? Date.UTC(2026, 10, 29) : null },
    recovery_codes: { total: state.codes, remaining: state.codes, created_at: state.codes ? 1 : null },
    methods: ['sms', ...(state.totp ? ['totp'] : []), ...(state.codes ? ['recovery_code'] : [])],
  });
  return fakePassport({
    [webPaths.accountInfo]: () => ok(signedInAccount),
    [webPaths.factorList]: () => ok(factors()),
    [webPaths.totpStart]: () =>
      ok({
        secret: SECRET,
        uri: `otpauth://totp/Portico:ada?secret=${SECRET}&issuer=Portico`,
        algorithm: 'SHA1',
        digits: 6,
        period: 30,
        expires_in: 900,
      }),
    [webPaths.totpConfirm]: () => {
      state.totp = true;
      return ok(factors());
    },
    [webPaths.totpRemove]: () => {
      state.totp = false;
      return ok(factors());
    },
    [webPaths.recoveryCodeGenerate]: () => {
      state.codes = 10;
      return ok({ codes: CODES });
    },
  });
}

describe('the authenticator app and recovery code sections', () => {
  it('set up an app from the key shown once, and remove it only once confirmed', async () => {
    const passport = factorPassport();
    renderInProvider(passport.client, <AccountSecurity account={signedInAccount} />, 'en');
    const user = userEvent.setup();
    const section = screen.getByRole('region', { name: 'Authenticator app' });
    await within(section).findByText('Not set up.');
    await user.click(within(section).getByRole('button', { name: 'Set up an authenticator app' }));
    expect(await within(section).findByText(SECRET)).toBeTruthy();
    await user.type(within(section).getByLabelText('6-digit code shown in the app'), '123456');
    await user.click(within(section).getByRole('button', { name: 'Confirm and turn on' }));
    expect(await within(section).findByText('The authenticator app is on.')).toBeTruthy();
    expect(within(section).queryByText(SECRET)).toBeNull();
    expect(passport.to(webPaths.totpConfirm)[0]?.body).toMatchObject({ code: '123456' });

    await user.click(await within(section).findByRole('button', { name: 'Remove the authenticator app' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove the authenticator app?' });
    // Cancel has the focus: Enter never removes by accident.
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toBe(document.activeElement);
    expect(passport.to(webPaths.totpRemove)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Remove the authenticator app' }));
    expect(await within(section).findByText('The authenticator app was removed.')).toBeTruthy();
    expect(passport.to(webPaths.totpRemove)).toHaveLength(1);
  });

  it('shows ten recovery codes once, as a text file too, and confirms a new set', async () => {
    const passport = factorPassport();
    renderInProvider(passport.client, <AccountSecurity account={signedInAccount} />, 'zh');
    const user = userEvent.setup();
    const section = screen.getByRole('region', { name: '恢复码' });
    await within(section).findByText('还没有生成恢复码。');
    await user.click(within(section).getByRole('button', { name: '生成恢复码' }));
    const list = await within(section).findByRole('list', { name: '新的恢复码' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    const file = within(section).getByRole('link', { name: '下载为文本文件' });
    expect(file.getAttribute('download')).toBe('portico-recovery-codes.txt');
    const text = decodeURIComponent(
      (file.getAttribute('href') ?? '').replace(/^data:text\/plain;charset=utf-8,/, ''),
    );
    for (const code of CODES) expect(text).toContain(code);

    await user.click(within(section).getByRole('button', { name: '我已保存' }));
    await waitFor(() => expect(within(section).queryByRole('list')).toBeNull());
    await user.click(await within(section).findByRole('button', { name: '重新生成恢复码' }));
    const confirm = await screen.findByRole('alertdialog', { name: '重新生成恢复码？' });
    expect(passport.to(webPaths.recoveryCodeGenerate)).toHaveLength(1);
    await user.click(within(confirm).getByRole('button', { name: '重新生成恢复码' }));
    await within(section).findByRole('list', { name: '新的恢复码' });
    expect(passport.to(webPaths.recoveryCodeGenerate)).toHaveLength(2);
  });
});
