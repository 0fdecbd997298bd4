import { ErrorCode, passportPaths, webPaths } from '@portico/account-sdk/protocol';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail, fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { renderAuthApp } from './support/app';

const legal = { terms: '/terms', privacy: '/privacy' };

describe('the sign-up screen', () => {
  it('registers by mobile code; a refused password is corrected without a new code', async () => {
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [webPaths.sendCode]: () => ok({ expires_in: 600 }),
      [webPaths.mobileCheckCode]: () => ok({ verify_ticket: 'ticket-1' }),
      [passportPaths.mobileRegister]: ({ body }) =>
        body.password === 'password123' ? fail(ErrorCode.passwordTooCommon) : ok(signedInAccount),
    });
    const { router, queryClient } = renderAuthApp(passport.client, '/sign-up?next=/welcome', { legal });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('手机号'), '13912345678');
    await user.click(screen.getByRole('button', { name: '获取验证码' }));
    await user.type(screen.getByLabelText('验证码'), '123456');
    await user.type(screen.getByLabelText('设置密码'), 'password123');
    await user.type(screen.getByLabelText('再次输入新密码'), 'password123');
    await user.click(screen.getByRole('button', { name: '注册并登录' }));
    // The consent is explicit: nothing is sent without it.
    expect(await screen.findByText('请先阅读并同意服务条款和隐私政策')).toBeTruthy();
    expect(passport.to(webPaths.mobileCheckCode)).toHaveLength(0);

    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: '注册并登录' }));
    expect(await screen.findByText('密码过于常见，请换一个')).toBeTruthy();

    for (const label of ['设置密码', '再次输入新密码']) {
      await user.clear(screen.getByLabelText(label));
      await user.type(screen.getByLabelText(label), 'a long passphrase');
    }
    await user.click(screen.getByRole('button', { name: '注册并登录' }));
    await screen.findByText('landed');
    expect(router.state.location.pathname).toBe('/welcome');
    expect(passport.to(webPaths.mobileCheckCode)).toHaveLength(1);
    expect(passport.to(passportPaths.mobileRegister).map((r) => r.body.verify_ticket)).toEqual([
      'ticket-1',
      'ticket-1',
    ]);
    expect(queryClient.getQueryData(['portico', 'account', 'session'])).toMatchObject({ user_id: '42' });
  });

  it('without legal links there is no consent to ask for', async () => {
    renderAuthApp(
      fakePassport({ [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn) }).client,
      '/sign-up',
    );
    expect(await screen.findByRole('button', { name: '注册并登录' })).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});

describe('the reset screen', () => {
  it('resets by e-mail code and ends on a sign-in link that keeps next', async () => {
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [webPaths.emailSendCode]: () => ok({ expires_in: 600 }),
      [webPaths.emailPasswordReset]: () => ok({}),
    });
    renderAuthApp(passport.client, '/reset-password?next=/workbench');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: '通过邮箱' }));
    await user.type(screen.getByLabelText('邮箱'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: '获取验证码' }));
    await user.type(screen.getByLabelText('验证码'), '654321');
    await user.type(screen.getByLabelText('新密码'), 'a long passphrase');
    await user.type(screen.getByLabelText('再次输入新密码'), 'a long passphrase');
    await user.click(screen.getByRole('button', { name: '重置密码' }));
    expect(await screen.findByRole('heading', { name: '密码已重置' })).toBeTruthy();
    expect(passport.to(webPaths.emailPasswordReset)[0]?.body).toMatchObject({
      email: 'ada@example.com',
      code: '654321',
      password: 'a long passphrase',
    });
    expect(screen.getByRole('link', { name: '用新密码登录' }).getAttribute('href')).toBe(
      '/login?next=%2Fworkbench',
    );
  });
});
