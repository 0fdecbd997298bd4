import { AccountError } from '@portico/account-sdk';
import { ErrorCode } from '@portico/account-sdk/protocol';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CodeInput, EmailInput, MobileInput, PasswordInput, SubmitButton, splitMobile } from '../src';
import { fakePassport } from './support/fake-passport';
import { renderWithAccount } from './support/render';

function Controlled<T>({
  initial,
  children,
}: {
  initial: T;
  children(value: T, set: (v: T) => void): React.ReactNode;
}) {
  const [value, setValue] = useState(initial);
  return <>{children(value, setValue)}</>;
}

function SignInForm({ onMobile }: { onMobile(value: string): void }) {
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  return (
    <form onSubmit={(event) => event.preventDefault()}>
      <MobileInput
        value={mobile}
        onChange={(value) => {
          setMobile(value);
          onMobile(value);
        }}
      />
      <CodeInput value={code} onChange={setCode} onSend={() => {}} />
      <PasswordInput value={password} onChange={setPassword} />
      <SubmitButton>Sign in</SubmitButton>
    </form>
  );
}

describe('form parts', () => {
  it('are labelled and reachable by keyboard in reading order', async () => {
    const user = userEvent.setup();
    render(<SignInForm onMobile={() => {}} />);
    const order = [
      screen.getByRole('searchbox', { name: '搜索国家或地区' }),
      screen.getByRole('combobox', { name: '国家或地区区号' }),
      screen.getByLabelText('手机号'),
      screen.getByLabelText('验证码'),
      screen.getByRole('button', { name: '获取验证码' }),
      screen.getByLabelText('密码'),
      screen.getByRole('button', { name: '显示密码' }),
      screen.getByRole('button', { name: 'Sign in' }),
    ];
    for (const element of order) {
      await user.tab();
      expect(document.activeElement).toBe(element);
    }
    expect(screen.getByLabelText('手机号')).toHaveProperty('autocomplete', 'tel');
    expect(screen.getByLabelText('手机号').getAttribute('inputmode')).toBe('tel');
    expect(screen.getByLabelText('验证码').getAttribute('inputmode')).toBe('numeric');
    expect(screen.getByLabelText('验证码')).toHaveProperty('autocomplete', 'one-time-code');
  });

  it('uses English labels under an English provider', () => {
    const { client } = fakePassport({});
    renderWithAccount(<SignInForm onMobile={() => {}} />, { client, language: 'en' });
    expect(screen.getByLabelText('Mobile number')).toBeTruthy();
    expect(screen.getByLabelText('Verification code')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Show password' })).toBeTruthy();
  });

  it('MobileInput gives an E.164 string and follows the country code', async () => {
    const user = userEvent.setup();
    const onMobile = vi.fn();
    render(<SignInForm onMobile={onMobile} />);
    await user.type(screen.getByLabelText('手机号'), '139 1234-5678');
    expect(onMobile).toHaveBeenLastCalledWith('+8613912345678');
    await user.selectOptions(screen.getByRole('combobox'), 'HK');
    expect(onMobile).toHaveBeenLastCalledWith('+85213912345678');
    await user.clear(screen.getByLabelText('手机号'));
    expect(onMobile).toHaveBeenLastCalledWith('');
    // The country stays selected with no digits, and an autofilled full number picks its own.
    expect(screen.getByRole<HTMLSelectElement>('combobox').value).toBe('HK');
    await user.click(screen.getByLabelText('手机号'));
    await user.paste('+44 7700 900123');
    expect(onMobile).toHaveBeenLastCalledWith('+447700900123');
    expect(screen.getByRole<HTMLSelectElement>('combobox').value).toBe('GB');
    expect(screen.getByLabelText<HTMLInputElement>('手机号').value).toBe('7700900123');
  });

  it('splitMobile takes the longest matching dial code', () => {
    expect(splitMobile('+85291234567')).toEqual({ dial: '+852', national: '91234567' });
    expect(splitMobile('+8613912345678')).toEqual({ dial: '+86', national: '13912345678' });
    expect(splitMobile('+15555550100')).toEqual({ dial: '+1', national: '5555550100' });
    expect(splitMobile('13912345678')).toEqual({ dial: '+86', national: '13912345678' });
  });

  it('PasswordInput reveals and hides the password with a pressed toggle', async () => {
    const user = userEvent.setup();
    render(
      <Controlled initial="">
        {(v, set) => <PasswordInput value={v} onChange={set} autoComplete="new-password" />}
      </Controlled>,
    );
    const input = screen.getByLabelText<HTMLInputElement>('密码');
    const toggle = screen.getByRole('button', { name: '显示密码' });
    await user.type(input, ' s3cret ');
    expect(input.value).toBe(' s3cret ');
    expect(input.type).toBe('password');
    expect(input.autocomplete).toBe('new-password');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(input.type).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    await user.keyboard(' ');
    expect(input.type).toBe('password');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
  });

  it('CodeInput keeps 6 digits and its send button shows progress and the countdown', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn();
    const { rerender } = render(
      <Controlled initial="">
        {(v, set) => <CodeInput value={v} onChange={set} onSend={onSend} />}
      </Controlled>,
    );
    const input = screen.getByLabelText<HTMLInputElement>('验证码');
    await user.type(input, '12a34 5678');
    expect(input.value).toBe('123456');
    await user.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(onSend).toHaveBeenCalledTimes(1);

    rerender(<CodeInput value="" onChange={() => {}} onSend={onSend} sending />);
    const busy = screen.getByRole<HTMLButtonElement>('button', { name: '发送中…' });
    expect(busy.disabled).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');

    rerender(<CodeInput value="" onChange={() => {}} onSend={onSend} cooldown={42} />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: '42 秒后可重发' }).disabled).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('验证码已发送');
  });

  it('CodeInput reads a long cooldown in minutes, and says "sent" only when the last send did not fail', () => {
    const { client } = fakePassport({});
    const cooling = new AccountError('response', { error_code: ErrorCode.codeCooldown, description: 'x' });
    const { rerender } = renderWithAccount(
      <CodeInput value="" onChange={() => {}} onSend={() => {}} cooldown={119} />,
      { client },
    );
    expect(screen.getByRole('button', { name: '119 秒后可重发' })).toBeTruthy();
    rerender(
      <CodeInput value="" onChange={() => {}} onSend={() => {}} cooldown={1741} sendError={cooling} />,
    );
    expect(screen.getByRole<HTMLButtonElement>('button', { name: '30 分钟后可重发' }).disabled).toBe(true);
    // The cooldown is a wait for a code the passport refused to send, not a code on its way.
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('CodeInput in English: minutes from 2 minutes on', () => {
    const { client } = fakePassport({});
    renderWithAccount(<CodeInput value="" onChange={() => {}} onSend={() => {}} cooldown={120} />, {
      client,
      language: 'en',
    });
    expect(screen.getByRole('button', { name: 'Resend in 2 min' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Code sent');
  });

  it('links an error to its field with aria-describedby and aria-invalid, by code and language', () => {
    const { client } = fakePassport({});
    const error = new AccountError('response', { error_code: ErrorCode.codeWrong, description: 'x' });
    renderWithAccount(<CodeInput value="" onChange={() => {}} error={error} />, { client, language: 'en' });
    const input = screen.getByLabelText('Verification code');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const note = document.getElementById(input.getAttribute('aria-describedby')!);
    expect(note?.textContent).toBe('The code is incorrect');
    expect(note?.getAttribute('role')).toBe('alert');
  });

  it('EmailInput is an e-mail field with its label', async () => {
    const user = userEvent.setup();
    render(
      <Controlled initial="">
        {(v, set) => <EmailInput value={v} onChange={set} error="请输入邮箱" />}
      </Controlled>,
    );
    const input = screen.getByLabelText<HTMLInputElement>('邮箱');
    expect(input.type).toBe('email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await user.type(input, ' ada@example.com ');
    expect(input.value).toBe('ada@example.com');
  });

  it('SubmitButton is busy and ignores presses while pending, but keeps focus', async () => {
    const user = userEvent.setup();
    const submitted = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
    const form = (pending: boolean) => (
      <form onSubmit={submitted}>
        <input aria-label="Code" />
        <SubmitButton pending={pending}>Go</SubmitButton>
      </form>
    );
    const { rerender } = render(form(false));
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Go' });
    expect(button.getAttribute('aria-disabled')).toBeNull();
    await user.click(button);
    expect(submitted).toHaveBeenCalledTimes(1);

    rerender(form(true));
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.textContent).toBe('请稍候…');
    expect(document.activeElement).toBe(button);
    await user.click(button);
    await user.type(screen.getByRole('textbox', { name: 'Code' }), '1{Enter}');
    expect(submitted).toHaveBeenCalledTimes(1);
  });
});
