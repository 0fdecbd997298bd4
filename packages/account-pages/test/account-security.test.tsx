import type { AccountClient } from '@portico/account-sdk';
import { CodeType, ErrorCode, webPaths } from '@portico/account-sdk/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail, fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { AccountSecurity } from '../src';
import { renderInProvider } from './support/app';

/** The security section for `account`, in a provider of `language`. */
function renderSecurity(client: AccountClient, account = signedInAccount, language: 'zh' | 'en' = 'en') {
  renderInProvider(client, <AccountSecurity account={account} />, language);
}

describe('the account security section', () => {
  it('changes the e-mail: the password earns the ticket, the new address its code; kick_other is sent', async () => {
    const account = { ...signedInAccount, email: 'a***@example.com', has_password: true };
    const passport = fakePassport({
      [webPaths.accountVerify]: ({ body }) =>
        body.password === 'the password'
          ? ok({ ticket: 'T'.repeat(43), expires_in: 600, method: 'password', purpose: 'change_identifier' })
          : fail(ErrorCode.currentPasswordWrong),
      [webPaths.emailSendCode]: () => ok({ expires_in: 600, retry_time: 60 }),
      [webPaths.emailChange]: () =>
        ok({ ...account, email: 'b***@example.com', kicked_sessions: 2, moved: false }),
      [webPaths.accountInfo]: () => ok(account),
    });
    renderSecurity(passport.client, account);
    const user = userEvent.setup();
    const section = screen.getByRole('region', { name: 'E-mail' });
    await user.click(within(section).getByRole('button', { name: 'Change the e-mail address' }));

    // Step 1 takes the focus; the ways are the account's: its mobile, its e-mail, its password.
    const step1 = within(section).getByRole('region', { name: 'Step 1: prove it is you' });
    expect(within(step1).getByRole('heading')).toBe(document.activeElement);
    const ways = within(step1)
      .getAllByRole('radio')
      .map((radio) => radio.parentElement?.textContent?.trim());
    expect(ways).toEqual(['Current mobile +86******5678', 'Current e-mail a***@example.com', 'Password']);
    await user.click(within(step1).getByRole('radio', { name: 'Password' }));
    await user.type(within(step1).getByLabelText('Current password'), 'a wrong one');
    await user.click(within(step1).getByRole('button', { name: 'Verify' }));
    expect(await within(step1).findByText('The current password is incorrect')).toBeTruthy();
    await user.clear(within(step1).getByLabelText('Current password'));
    await user.type(within(step1).getByLabelText('Current password'), 'the password');
    await user.click(within(step1).getByRole('button', { name: 'Verify' }));

    const step2 = await within(section).findByRole('region', {
      name: 'Step 2: verify the new e-mail address',
    });
    expect(within(step2).getByRole('heading')).toBe(document.activeElement);
    await user.type(within(step2).getByLabelText('New e-mail address'), 'b@example.com');
    await user.click(within(step2).getByRole('button', { name: 'Send code' }));
    await user.type(within(step2).getByLabelText('Verification code'), '123456');
    await user.click(within(step2).getByRole('checkbox', { name: 'Also sign out on my other devices' }));
    await user.click(within(step2).getByRole('button', { name: 'Change it' }));
    expect(
      await within(section).findByText('The e-mail address was changed. Signed out 2 other sessions.'),
    ).toBeTruthy();

    expect(passport.to(webPaths.emailSendCode)[0]?.body).toMatchObject({
      email: 'b@example.com',
      type: String(CodeType.login),
    });
    expect(passport.to(webPaths.emailChange)[0]?.body).toMatchObject({
      email: 'b@example.com',
      code: '123456',
      ticket: 'T'.repeat(43),
      kick_other: '1',
    });
  });

  it('sets a username with a first password; a taken username shows the catalogue text (zh)', async () => {
    let calls = 0;
    const passport = fakePassport({
      [webPaths.accountInfo]: () => ok(signedInAccount),
      '/passport/account/set/': ({ body }) => {
        calls += 1;
        return calls === 1
          ? fail(ErrorCode.usernameTaken)
          : ok({ ...signedInAccount, username: body.username });
      },
    });
    renderSecurity(passport.client, signedInAccount, 'zh');
    const user = userEvent.setup();
    const section = screen.getByRole('region', { name: '用户名与密码' });
    await user.type(within(section).getByRole('textbox', { name: '用户名' }), 'ada');
    await user.type(within(section).getByLabelText('密码'), 'a long passphrase');
    await user.type(within(section).getByLabelText('再次输入新密码'), 'a long passphrase');
    await user.click(within(section).getByRole('button', { name: '设置用户名和密码' }));
    expect(await within(section).findByText('用户名已被占用')).toBeTruthy();
    await user.click(within(section).getByRole('button', { name: '设置用户名和密码' }));
    expect(await within(section).findByText('用户名已设置。')).toBeTruthy();
    expect(passport.to('/passport/account/set/').at(-1)?.body).toMatchObject({
      username: 'ada',
      password: 'a long passphrase',
    });
  });

  it('adds a mobile to an account without one by a bind code (type 8)', async () => {
    const account = { ...signedInAccount, mobile: '', email: 'a***@example.com' };
    const passport = fakePassport({
      [webPaths.accountInfo]: () => ok(account),
      [webPaths.sendCode]: () => ok({ expires_in: 600, retry_time: 60 }),
      [webPaths.mobileBind]: () =>
        ok({ ...account, mobile: '+86******5678', kicked_sessions: 0, moved: false }),
    });
    renderSecurity(passport.client, account);
    const user = userEvent.setup();
    const section = screen.getByRole('region', { name: 'Mobile number' });
    expect(within(section).getByText('Not set')).toBeTruthy();
    await user.click(within(section).getByRole('button', { name: 'Add a mobile number' }));
    await user.type(within(section).getByRole('textbox', { name: 'Mobile number' }), '13912345678');
    await user.click(within(section).getByRole('button', { name: 'Send code' }));
    await user.type(within(section).getByLabelText('Verification code'), '123456');
    await user.click(within(section).getByRole('button', { name: 'Add' }));
    expect(await within(section).findByText('The mobile number was added.')).toBeTruthy();
    expect(passport.to(webPaths.sendCode)[0]?.body).toMatchObject({
      mobile: '+8613912345678',
      type: String(CodeType.bind),
    });
    expect(passport.to(webPaths.mobileBind)[0]?.body).toMatchObject({
      mobile: '+8613912345678',
      code: '123456',
    });
  });
});
