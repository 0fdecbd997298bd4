import { useLogout } from '@portico/account-react';
import { webPaths } from '@portico/account-sdk/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { AccountSummary, SignInMethods, SignOutCard, TrustedDevices } from '../src';
import { renderInProvider } from './support/app';

const account = { ...signedInAccount, has_password: true, email: 'a***@example.com' };

function Workbench() {
  const logout = useLogout();
  return (
    <>
      <AccountSummary account={account}>
        <a href="/account/profile">edit</a>
      </AccountSummary>
      <SignInMethods account={account} forgot={<a href="/reset-password">forgot</a>} />
      <TrustedDevices />
      <SignOutCard logout={logout} />
    </>
  );
}

describe('the workbench sections', () => {
  it('show the account, its methods, its devices (one removed) and sign out', async () => {
    let devices = [
      { id: 'd1', first_seen_at: 1, last_seen_at: 2, user_agent: 'Chrome on macOS', current: true },
      { id: 'd2', first_seen_at: 1, last_seen_at: 2, user_agent: 'Safari on iOS', current: false },
    ];
    const passport = fakePassport({
      [webPaths.accountInfo]: () => ok(account),
      [webPaths.passwordHasSet]: () => ok({ has_set: true }),
      [webPaths.deviceList]: () => ok({ devices }),
      [webPaths.deviceForget]: ({ body }) => {
        devices = devices.filter((device) => device.id !== body.device_id);
        return ok({});
      },
      [webPaths.logout]: () => ok({}),
    });
    renderInProvider(passport.client, <Workbench />, 'en');
    const user = userEvent.setup();
    const summary = within(screen.getByRole('region', { name: 'Your account' }));
    expect(summary.getByText('a***@example.com')).toBeTruthy();
    expect(summary.getByRole('link', { name: 'edit' })).toBeTruthy();

    // A password: the change form (with the app's "forgot" link), not the set one.
    const methods = within(screen.getByRole('region', { name: 'Sign-in methods and security' }));
    expect(await methods.findByRole('form', { name: 'Change password' })).toBeTruthy();
    expect(methods.getByRole('link', { name: 'forgot' })).toBeTruthy();

    const trusted = within(screen.getByRole('region', { name: 'Trusted devices' }));
    await user.click(await trusted.findByRole('button', { name: 'Remove device: Safari on iOS' }));
    await expect.poll(() => trusted.queryByText('Safari on iOS')).toBeNull();
    expect(passport.to(webPaths.deviceForget)[0]?.body).toMatchObject({ device_id: 'd2' });

    const signOut = within(screen.getByRole('region', { name: 'Sign out' }));
    await user.click(signOut.getByRole('button', { name: 'Sign out' }));
    await expect.poll(() => passport.to(webPaths.logout)).toHaveLength(1);
  });
});
