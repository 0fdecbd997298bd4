import { webPaths } from '@portico/account-sdk/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakePassport, ok } from '../../account-react/test/support/fake-passport';
import { SignInChanges } from '../src';
import { renderInProvider } from './support/app';

const change = (id: string, type: string, data: object, disowned = false) => ({
  id,
  type,
  data,
  ip: '203.0.113.66',
  occurred_at: Date.UTC(2026, 0, 2, 3, 4),
  disowned,
});

describe('recent changes to sign-in methods', () => {
  it('shows the notice, asks before “this wasn’t me”, then signs out everywhere and leads on to secure the account', async () => {
    const passport = fakePassport({
      [webPaths.accountSignInChanges]: () =>
        ok({
          changes: [
            change('e2', 'account.identifier_bound', { channel: 'email', identifier: 't***@example.com' }),
            change('e1', 'account.password_set', {}, true),
          ],
        }),
      [webPaths.accountSignInChangesDisown]: () => ok({ sessions_ended: 3, devices_forgotten: 2 }),
    });
    renderInProvider(passport.client, <SignInChanges resetPasswordHref="/reset-password" />, 'en');
    const user = userEvent.setup();
    const region = within(screen.getByRole('region', { name: 'Recent changes to how you sign in' }));
    expect(await region.findByRole('status')).toHaveProperty(
      'textContent',
      'Your account has 1 recent change(s) to how you sign in. If one was not you, choose “This wasn’t me”.',
    );
    const row = region.getByRole('row', { name: /Added a e-mail address · t\*\*\*@example\.com/ });
    expect(within(row).getByText('203.0.113.66')).toBeTruthy();
    expect(region.getByRole('row', { name: /Set a password/ }).textContent).toContain('Marked as not you');

    await user.click(region.getByRole('button', { name: 'This wasn’t me: Added a e-mail address' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Was this change not made by you?' });
    // Cancel first: nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(passport.received.some((r) => r.path === webPaths.accountSignInChangesDisown)).toBe(false);

    await user.click(region.getByRole('button', { name: 'This wasn’t me: Added a e-mail address' }));
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const next = await region.findByRole('alert');
    expect(within(next).getByRole('heading', { name: 'Signed out everywhere' })).toBeTruthy();
    expect(within(next).getByRole('link', { name: 'Reset password' }).getAttribute('href')).toBe(
      '/reset-password',
    );
    expect(within(next).getByRole('link', { name: 'Sign in again' }).getAttribute('href')).toContain(
      '/login',
    );
    const sent = passport.received.find((r) => r.path === webPaths.accountSignInChangesDisown);
    expect(sent?.body.event_id).toBe('e2');
  });

  it('says so in Chinese when nothing changed', async () => {
    const passport = fakePassport({ [webPaths.accountSignInChanges]: () => ok({ changes: [] }) });
    renderInProvider(passport.client, <SignInChanges />, 'zh');
    expect(await screen.findByText('最近 30 天没有登录方式变更。')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
