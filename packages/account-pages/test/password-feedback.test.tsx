import { AccountProvider, createAccountQueryClient } from '@portico/account-react';
import { AccountError } from '@portico/account-sdk';
import { ErrorCode, passportPaths, webPaths } from '@portico/account-sdk/protocol';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail, fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { NewPasswordFields, useNewPassword } from '../src';
import { isPasswordRefusal, passwordFeedbackOf } from '../src/forms/password-feedback';
import { renderAuthApp } from './support/app';

/** What the passport answers for `Summer2024` (apps/passport-server/test/password-strength.test.ts). */
const tooWeak = {
  password_score: 1,
  password_min_score: 3,
  password_feedback: { warning: 'similarToCommon', suggestions: ['anotherWord', 'capitalization'] },
};
const refusal = (extra: Record<string, unknown> = tooWeak, code: number = ErrorCode.passwordTooWeak) =>
  new AccountError('response', {
    error_code: code,
    description: 'English sentence from the server',
    ...extra,
  });

function Fields({ error }: { error: unknown }) {
  const state = useNewPassword();
  return <NewPasswordFields state={state} label="New password" refusal={error} />;
}

function renderFields(error: unknown, language: 'zh' | 'en') {
  const fake = fakePassport({});
  render(
    <AccountProvider
      client={fake.client}
      queryClient={createAccountQueryClient()}
      language={language}
      secondVerify={false}
    >
      <Fields error={error} />
    </AccountProvider>,
  );
  return screen.getByLabelText('New password');
}

describe('the estimator’s feedback on the new-password fields', () => {
  it('shows the refusal on the password field and the feedback keys as English sentences', () => {
    const input = renderFields(refusal(), 'en');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe(
      'This password is too easy to guess; choose a longer, less common one',
    );
    const hint = document.getElementById(`${input.id}-hint`);
    expect(input.getAttribute('aria-describedby')).toContain(`${input.id}-hint`);
    expect(hint?.textContent?.trim()).toBe(
      'This is similar to a commonly used password. Add more words that are less common. Capitalise more than the first letter.',
    );
    expect(document.body.textContent).not.toContain('English sentence from the server');
  });

  it('shows the same in Chinese', () => {
    const input = renderFields(refusal(), 'zh');
    expect(screen.getByRole('alert').textContent).toBe('密码太容易被猜到，请换一个更长、更少见的');
    expect(document.getElementById(`${input.id}-hint`)?.textContent?.trim()).toBe(
      '这个密码和常用密码很相似。 再加几个不常见的词。 不要只把首字母大写。',
    );
  });

  it('leaves out keys it does not know, and keeps the rules hint when there is no feedback', () => {
    const unknown = refusal({
      password_feedback: { warning: 'notAKey', suggestions: ['toString', 'repeated', 42] },
    });
    expect(passwordFeedbackOf(unknown)).toEqual({ warning: null, suggestions: ['repeated'] });
    const input = renderFields(refusal({}, ErrorCode.passwordTooCommon), 'en');
    expect(screen.getByRole('alert').textContent).toBe('This password is too common; choose another');
    expect(document.getElementById(`${input.id}-hint`)?.textContent).toContain('At least 8 characters');
  });

  it('tells a password refusal from the form’s other failures', () => {
    expect(isPasswordRefusal(refusal())).toBe(true);
    expect(isPasswordRefusal(refusal({}, ErrorCode.passwordContainsContext))).toBe(true);
    expect(isPasswordRefusal(refusal({}, ErrorCode.codeWrong))).toBe(false);
    expect(isPasswordRefusal(new Error('x'))).toBe(false);
    expect(passwordFeedbackOf(refusal({}, ErrorCode.passwordTooCommon))).toBeNull();
  });

  it('on the sign-up screen: the feedback shows once, on the field, and a better password goes through', async () => {
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [webPaths.sendCode]: () => ok({ expires_in: 600 }),
      [webPaths.mobileCheckCode]: () => ok({ verify_ticket: 'ticket-1' }),
      [passportPaths.mobileRegister]: ({ body }) =>
        body.password === 'Summer2024'
          ? fail(ErrorCode.passwordTooWeak, 'server text', tooWeak)
          : ok(signedInAccount),
    });
    renderAuthApp(passport.client, '/sign-up?next=/welcome', {}, 'en');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Mobile number'), '13912345678');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await user.type(screen.getByLabelText('Verification code'), '123456');
    const password = screen.getByLabelText('Choose a password');
    await user.type(password, 'Summer2024');
    await user.type(screen.getByLabelText('Repeat the new password'), 'Summer2024');
    await user.click(screen.getByRole('button', { name: 'Sign up and sign in' }));
    expect(await screen.findAllByText(/too easy to guess/)).toHaveLength(1);
    expect(screen.getByText(/similar to a commonly used password/)).toBeTruthy();
    for (const label of ['Choose a password', 'Repeat the new password']) {
      await user.clear(screen.getByLabelText(label, { exact: true }));
      await user.type(screen.getByLabelText(label, { exact: true }), 'a long passphrase');
    }
    await user.click(screen.getByRole('button', { name: 'Sign up and sign in' }));
    await screen.findByText('landed');
  });
});
