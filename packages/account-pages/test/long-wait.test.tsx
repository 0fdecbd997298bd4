import { AccountError } from '@portico/account-sdk';
import { ErrorCode, errorText, openPaths, webPaths } from '@portico/account-sdk/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail, fakePassport } from '../../account-react/test/support/fake-passport';
import { longWaitOf } from '../src/forms/long-wait';
import { renderAuthApp } from './support/app';

/**
 * A passport whose number (or address) is in a cooldown armed elsewhere: every code send is refused
 * with CODE_COOLDOWN and `retry_time` seconds left, as the passport answers while strangers keep
 * asking for codes to it.
 */
function coolingPassport(retry_time: number) {
  const cooling = () => fail(ErrorCode.codeCooldown, undefined, { retry_time });
  return fakePassport({
    [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
    [webPaths.sendCode]: cooling,
    [webPaths.emailSendCode]: cooling,
  });
}

/** Types a number on the SMS tab of /login and asks for a code. */
async function askForSmsCode(
  user: ReturnType<typeof userEvent.setup>,
  label = '手机号',
  send = '获取验证码',
) {
  await user.type(await screen.findByLabelText(label), '13912345678');
  await user.click(screen.getByRole('button', { name: send }));
}

describe('a long wait for a sign-in code', () => {
  it('says how long in minutes, why, and offers the password and the e-mail code; the password tab is a key press away', async () => {
    const passport = coolingPassport(1740);
    renderAuthApp(passport.client, '/login');
    const user = userEvent.setup();
    await screen.findByRole('tab', { name: '短信验证码' });
    // The tabs move focus only when a switch from inside the panel took it away, never on their own.
    expect(document.activeElement).toBe(document.body);
    await askForSmsCode(user);

    // The send button counts down from retry_time, in minutes.
    const button = await screen.findByRole<HTMLButtonElement>('button', { name: '29 分钟后可重发' });
    expect(button.disabled).toBe(true);
    // Announced as an alert, in one piece.
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      '29 分钟后才能再获取验证码。这个手机号最近被请求了很多验证码。你可以改用密码或邮箱验证码登录。',
    );
    // The notice explains the refusal: the number field is not marked wrong, and nothing says "sent".
    expect(screen.getByLabelText('手机号').getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText(errorText(ErrorCode.codeCooldown, 'zh'))).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('');
    expect(screen.getAllByRole('alert')).toHaveLength(1);

    // Keyboard: from the code field (the send button is disabled) the next tab stops are the offers.
    await user.click(screen.getByLabelText('验证码'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '用密码登录' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '用邮箱验证码登录' }));
    await user.tab({ shift: true });
    await user.keyboard('{Enter}');

    const tab = screen.getByRole('tab', { name: '密码' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab);
    expect(screen.getByLabelText('手机号、邮箱或用户名')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(passport.to(webPaths.sendCode)).toHaveLength(1);
  });

  it('offers the e-mail code tab the same way, and the SMS code from the e-mail tab', async () => {
    const passport = coolingPassport(600);
    renderAuthApp(passport.client, '/login');
    const user = userEvent.setup();
    await askForSmsCode(user);
    await user.click(await screen.findByRole('button', { name: '用邮箱验证码登录' }));
    expect(screen.getByRole('tab', { name: '邮箱验证码' }).getAttribute('aria-selected')).toBe('true');

    await user.type(screen.getByLabelText('邮箱'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: '获取验证码' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      '10 分钟后才能再获取验证码。这个邮箱最近被请求了很多验证码。你可以改用密码或短信验证码登录。',
    );
    expect(screen.getByRole('button', { name: '用短信验证码登录' })).toBeTruthy();
  });

  it('in English, offers only the methods the app has (here the password), and reads under 2 minutes in seconds', async () => {
    const passport = coolingPassport(90);
    renderAuthApp(passport.client, '/login', { methods: ['email', 'password'] }, 'en');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));

    expect(await screen.findByRole('button', { name: 'Resend in 90 s' })).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'A new code can be sent in 90 seconds. This address has been asked for many codes lately. You can sign in with your password instead.',
    );
    expect(screen.queryByRole('button', { name: 'Use an SMS code' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign in with password' }));
    expect(screen.getByRole('tab', { name: 'Password' }).getAttribute('aria-selected')).toBe('true');
  });

  it('with one method on the page, says how long and why, with nothing to offer', async () => {
    const passport = coolingPassport(1800);
    renderAuthApp(passport.client, '/login', { methods: ['sms'] }, 'en');
    const user = userEvent.setup();
    await askForSmsCode(user, 'Mobile number', 'Send code');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'A new code can be sent in 30 minutes. This number has been asked for many codes lately.',
    );
    expect(screen.getByRole('button', { name: 'Resend in 30 min' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in with password' })).toBeNull();
  });

  it('a usual wait (60 s or less) counts down with the catalogue text on the number, and offers nothing', async () => {
    const passport = coolingPassport(45);
    renderAuthApp(passport.client, '/login');
    const user = userEvent.setup();
    await askForSmsCode(user);
    expect(await screen.findByRole('button', { name: '45 秒后可重发' })).toBeTruthy();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(errorText(ErrorCode.codeCooldown, 'zh'));
    expect(screen.getByLabelText('手机号').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('button', { name: '用密码登录' })).toBeNull();
  });

  it('on the consent page, offers its password tab', async () => {
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [openPaths.authInfoV2]: () => ({
        status_code: 0,
        data: {
          client_key: 'c1',
          app_name: 'Video Club',
          app_icon: '',
          scope: [],
          optionalScope: [],
          user: null,
        },
      }),
      [webPaths.sendCode]: () => fail(ErrorCode.codeCooldown, undefined, { retry_time: 300 }),
    });
    renderAuthApp(passport.client, '/authorization?interaction=i-1', { authorization: true });
    const user = userEvent.setup();
    const form = within(await screen.findByRole('tabpanel', {}, { timeout: 15_000 }));
    await user.type(form.getByLabelText('手机号'), '13912345678');
    await user.click(form.getByRole('button', { name: '获取验证码' }));
    expect((await form.findByRole('alert')).textContent).toBe(
      '5 分钟后才能再获取验证码。这个手机号最近被请求了很多验证码。你可以改用密码登录。',
    );
    await user.click(form.getByRole('button', { name: '用密码登录' }));
    const tab = screen.getByRole('tab', { name: '密码登录' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab);
  });
});

describe('longWaitOf (the rule)', () => {
  const cooling = (retry_time: unknown) =>
    new AccountError('response', { error_code: ErrorCode.codeCooldown, description: '', retry_time });

  it('is the retry_time of a CODE_COOLDOWN longer than 60 s, while the cooldown runs; else 0', () => {
    expect(longWaitOf({ error: cooling(1740), cooldown: 1740 })).toBe(1740);
    expect(longWaitOf({ error: cooling(61), cooldown: 12 })).toBe(61);
    expect(longWaitOf({ error: cooling(60), cooldown: 60 })).toBe(0);
    expect(longWaitOf({ error: cooling(1740), cooldown: 0 })).toBe(0);
    expect(longWaitOf({ error: cooling('1740'), cooldown: 1740 })).toBe(0);
    expect(longWaitOf({ error: cooling(undefined), cooldown: 0 })).toBe(0);
    const other = new AccountError('response', {
      error_code: ErrorCode.codeSendLimit,
      description: '',
      retry_time: 600,
    });
    expect(longWaitOf({ error: other, cooldown: 600 })).toBe(0);
    expect(longWaitOf({ error: null, cooldown: 60 })).toBe(0);
  });
});
