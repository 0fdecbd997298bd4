import { type AccountClient, isAccountError } from '@portico/account-sdk';
import { ErrorCode, webPaths } from '@portico/account-sdk/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useBindMobile } from '../src';
import { fail, fakePassport, ok, signedInAccount } from './support/fake-passport';
import { renderWithAccount } from './support/render';

/**
 * Step-up (2047) through the provider's dialog: a bind refused because the session's verification is
 * old opens "confirm it's you", a code to the account's own e-mail (or its password) renews it, and the
 * bind is sent again.
 */

const RIGHT_CODE = '864209';
const OWN_EMAIL = 'ada@example.com';

/** An account with an e-mail and a password whose session verified long ago. */
function staleSessionPassport() {
  let verified = false;
  return fakePassport({
    [webPaths.accountInfo]: () => ok(signedInAccount),
    [webPaths.emailSendCode]: () => ok({ email: 'a***@example.com', retry_time: 60, expires_in: 600 }),
    [webPaths.authVerify]: ({ body }) => {
      if (body.email !== OWN_EMAIL) return fail(ErrorCode.notYourIdentifier);
      if (body.code !== RIGHT_CODE) return fail(ErrorCode.codeWrong);
      verified = true;
      return ok({ ticket: 't', expires_in: 600, method: 'email', purpose: 'change_identifier' });
    },
    [webPaths.accountVerify]: ({ body }) => {
      if (body.password !== 'right password') return fail(ErrorCode.currentPasswordWrong);
      verified = true;
      return ok({ ticket: 't', expires_in: 600, method: 'password', purpose: 'change_identifier' });
    },
    [webPaths.mobileBind]: () =>
      verified
        ? ok({ ...signedInAccount, mobile: '+86******0001', kicked_sessions: 0, moved: false })
        : fail(ErrorCode.stepUpRequired, undefined, {
            mobile: '',
            email: 'a***@example.com',
            has_password: true,
            max_age: 600,
          }),
  });
}

/** Resolves once the provider has attached the step-up plugin (its module loads after mount). */
function stepUpAttached(client: AccountClient): () => Promise<void> {
  let attached = false;
  const use = client.use.bind(client);
  client.use = (plugin) => {
    if (plugin.name === 'step-up') attached = true;
    return use(plugin);
  };
  return () => waitFor(() => expect(attached).toBe(true));
}

function BindMobile() {
  const bind = useBindMobile();
  return (
    <div>
      <button type="button" onClick={() => bind.mutate({ mobile: '+8613900000001', code: '135790' })}>
        bind
      </button>
      {bind.isSuccess ? <p>bound {bind.data.mobile}</p> : null}
      {bind.isError ? (
        <p data-testid="outcome">{isAccountError(bind.error) ? String(bind.error.error_code) : 'other'}</p>
      ) : null}
    </div>
  );
}

describe('the step-up dialog', () => {
  it('opens on 2047 with the account’s ways, sends a code to the e-mail typed in full, and the bind goes through', async () => {
    const user = userEvent.setup();
    const passport = staleSessionPassport();
    const attached = stepUpAttached(passport.client);
    renderWithAccount(<BindMobile />, { client: passport.client, language: 'en' });
    await attached();
    await user.click(screen.getByRole('button', { name: 'bind' }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    const ways = within(dialog).getAllByRole('radio');
    expect(ways.map((way) => way.parentElement?.textContent?.trim())).toEqual([
      'E-mail a***@example.com',
      'Password',
    ]);
    await user.type(within(dialog).getByLabelText('E-mail'), OWN_EMAIL);
    await user.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(passport.to(webPaths.emailSendCode)).toHaveLength(1));
    expect(passport.to(webPaths.emailSendCode)[0]?.body).toMatchObject({ email: OWN_EMAIL, type: '22' });

    await user.type(within(dialog).getByLabelText('Verification code'), '000000');
    await user.click(within(dialog).getByRole('button', { name: 'Verify and continue' }));
    // A wrong code opens the dialog again with the error, the e-mail to type again.
    const again = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await within(again).findByRole('alert');
    await user.type(within(again).getByLabelText('E-mail'), OWN_EMAIL);
    await user.type(within(again).getByLabelText('Verification code'), RIGHT_CODE);
    await user.click(within(again).getByRole('button', { name: 'Verify and continue' }));

    await screen.findByText('bound +86******0001');
    expect(passport.to(webPaths.mobileBind)).toHaveLength(2);
    expect(passport.to(webPaths.authVerify).map((r) => r.body.code)).toEqual(['000000', RIGHT_CODE]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('takes the password, and closing rejects the bind with 2047 (zh texts)', async () => {
    const user = userEvent.setup();
    const passport = staleSessionPassport();
    const attached = stepUpAttached(passport.client);
    renderWithAccount(<BindMobile />, { client: passport.client });
    await attached();
    await user.click(screen.getByRole('button', { name: 'bind' }));
    const dialog = await screen.findByRole('dialog', { name: '确认是你本人' });
    await user.click(within(dialog).getByRole('radio', { name: '密码' }));
    await user.type(within(dialog).getByLabelText('当前密码'), 'right password');
    await user.click(within(dialog).getByRole('button', { name: '验证并继续' }));
    await screen.findByText('bound +86******0001');
    expect(passport.to(webPaths.accountVerify)).toHaveLength(1);

    const closing = staleSessionPassport();
    const closingAttached = stepUpAttached(closing.client);
    renderWithAccount(<BindMobile />, { client: closing.client });
    await closingAttached();
    await user.click(screen.getAllByRole('button', { name: 'bind' }).at(-1)!);
    const shown = await screen.findByRole('dialog', { name: '确认是你本人' });
    await user.click(within(shown).getByRole('button', { name: '关闭' }));
    expect((await screen.findByTestId('outcome')).textContent).toBe(String(ErrorCode.stepUpRequired));
    expect(closing.to(webPaths.mobileBind)).toHaveLength(1);
  });
});

describe('the step-up dialog of an account with an authenticator app', () => {
  it('lists the app and recovery codes beside the account’s ways, and the app’s code renews the session', async () => {
    const user = userEvent.setup();
    let verified = false;
    const passport = fakePassport({
      [webPaths.accountInfo]: () => ok(signedInAccount),
      [webPaths.authVerify]: ({ body }) => {
        if (body.method !== 'totp' || body.code !== RIGHT_CODE) return fail(ErrorCode.codeWrong);
        verified = true;
        return ok({ ticket: 't', expires_in: 600, method: 'totp', purpose: 'change_identifier' });
      },
      [webPaths.mobileBind]: () =>
        verified
          ? ok({ ...signedInAccount, mobile: '+86******0001', kicked_sessions: 0, moved: false })
          : fail(ErrorCode.stepUpRequired, undefined, {
              mobile: '',
              email: 'a***@example.com',
              has_password: true,
              max_age: 600,
              methods: ['email', 'password', 'totp', 'recovery_code'],
            }),
    });
    const attached = stepUpAttached(passport.client);
    renderWithAccount(<BindMobile />, { client: passport.client, language: 'en' });
    await attached();
    await user.click(screen.getByRole('button', { name: 'bind' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    const ways = within(dialog).getAllByRole('radio');
    expect(ways.map((way) => way.parentElement?.textContent?.trim())).toEqual([
      'E-mail a***@example.com',
      'Password',
      'Authenticator app',
      'Recovery code',
    ]);
    await user.click(within(dialog).getByRole('radio', { name: 'Authenticator app' }));
    await user.type(within(dialog).getByLabelText('6-digit code from your authenticator app'), RIGHT_CODE);
    await user.click(within(dialog).getByRole('button', { name: 'Verify and continue' }));
    await screen.findByText('bound +86******0001');
    expect(passport.to(webPaths.authVerify).map((r) => r.body)).toEqual([
      expect.objectContaining({ method: 'totp', code: RIGHT_CODE }),
    ]);
  });
});
