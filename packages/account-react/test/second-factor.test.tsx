import type { AccountClient } from '@portico/account-sdk';
import { ErrorCode, webPaths } from '@portico/account-sdk/protocol';
import { subjectInfo } from '@portico/affiliate-sdk';
import { affiliatePaths } from '@portico/affiliate-sdk/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useAccountClient } from '../src';
import { fail, fakePassport, ok, signedInAccount } from './support/fake-passport';
import { renderWithAccount } from './support/render';

/**
 * An organisation that requires a second factor of an account with none (1621) through the provider's
 * dialog: it sets up an authenticator app (the step-up it asks for opens above it), and every call the
 * organisation refused meanwhile is sent again.
 */

const APP_CODE = '246810';

/** A member in an organisation's identity, with a password and no factor, whose session verified long ago. */
function memberWithoutFactor() {
  const state = { verified: false, hasFactor: false };
  const passport = fakePassport({
    [webPaths.accountInfo]: () => ok(signedInAccount),
    [webPaths.accountVerify]: ({ body }) => {
      if (body.password !== 'right password') return fail(ErrorCode.currentPasswordWrong);
      state.verified = true;
      return ok({ ticket: 't', expires_in: 600, method: 'password', purpose: 'change_identifier' });
    },
    [webPaths.totpStart]: () =>
      state.verified
        ? ok({ secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Portico:Ada?secret=JBSWY3DPEHPK3PXP' })
        : fail(ErrorCode.stepUpRequired, undefined, {
            mobile: '',
            email: '',
            has_password: true,
            max_age: 600,
          }),
    [webPaths.totpConfirm]: ({ body }) => {
      if (body.code !== APP_CODE) return fail(ErrorCode.codeWrong);
      state.hasFactor = true;
      return ok({ totp: { enabled: true }, recovery_codes: { remaining: 0 }, methods: ['totp'] });
    },
    [affiliatePaths.subjectInfo]: ({ query }) =>
      state.hasFactor
        ? ok({ sec_subject_uid: query.sec_subject_uid, subject_name: `Org ${query.sec_subject_uid}` })
        : fail(1621, 'Set up a second factor', { enrol: ['passkey', 'totp'] }),
  });
  return { ...passport, state };
}

/** Resolves once the provider has attached the plugins of its lazily loaded module. */
function attached(client: AccountClient): () => Promise<void> {
  const names = new Set<string>();
  const use = client.use.bind(client);
  client.use = (plugin) => {
    names.add(plugin.name);
    return use(plugin);
  };
  return () =>
    waitFor(() => expect([...names]).toEqual(expect.arrayContaining(['step-up', 'second-factor'])));
}

/** Two organisation calls at once, as a console's panels make them. */
function TwoCalls() {
  const client = useAccountClient();
  const [outcome, setOutcome] = useState<string[]>([]);
  const load = () =>
    Promise.allSettled(['a', 'b'].map((sid) => subjectInfo(client, { sec_subject_uid: sid }))).then((all) =>
      setOutcome(
        all.map((one) =>
          one.status === 'fulfilled'
            ? one.value.subject_name
            : String((one.reason as { error_code?: number }).error_code),
        ),
      ),
    );
  return (
    <div>
      <button type="button" onClick={load}>
        load
      </button>
      <p data-testid="outcome">{outcome.join(', ')}</p>
    </div>
  );
}

describe('the second-factor dialog', () => {
  it('sets up an authenticator app after a step-up, then both refused calls go through (en)', async () => {
    const user = userEvent.setup();
    const passport = memberWithoutFactor();
    const ready = attached(passport.client);
    renderWithAccount(<TwoCalls />, { client: passport.client, language: 'en' });
    await ready();
    await user.click(screen.getByRole('button', { name: 'load' }));

    // One dialog for both calls, focus inside it.
    const dialog = await screen.findByRole('dialog', { name: 'Set up a second factor' });
    await waitFor(() => expect(passport.to(affiliatePaths.subjectInfo)).toHaveLength(2));
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    const passkey = within(dialog).getByRole('button', { name: 'Create a passkey' });
    expect(document.activeElement).toBe(passkey);
    expect(passkey.getAttribute('aria-describedby')).toBeTruthy();

    // Starting the app asks for a step-up, which opens above the dialog; the dialog waits, inert.
    await user.click(within(dialog).getByRole('button', { name: 'Use an authenticator app' }));
    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(dialog.closest('[inert]')).not.toBeNull();
    await user.type(within(stepUp).getByLabelText('Current password'), 'right password');
    await user.click(within(stepUp).getByRole('button', { name: 'Verify and continue' }));

    const secret = await within(dialog).findByTestId('totp-secret');
    expect(secret.textContent).toBe('JBSWY3DPEHPK3PXP');
    expect(dialog.closest('[inert]')).toBeNull();
    expect(
      within(dialog)
        .getByRole('link', { name: 'Open in an authenticator app on this device' })
        .getAttribute('href'),
    ).toMatch(/^otpauth:\/\/totp\//);
    // A wrong code is said in the dialog, which stays.
    await user.type(within(dialog).getByLabelText('6-digit code from your authenticator app'), '000000');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm and continue' }));
    await within(dialog).findByRole('alert');
    const field = within(dialog).getByLabelText('6-digit code from your authenticator app');
    await user.clear(field);
    await user.type(field, APP_CODE);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm and continue' }));

    await waitFor(() => expect(screen.getByTestId('outcome').textContent).toBe('Org a, Org b'));
    expect(passport.to(affiliatePaths.subjectInfo)).toHaveLength(4);
    expect(passport.to(webPaths.totpStart)).toHaveLength(2);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes on Escape, keeps Tab inside, and the refused calls reject with 1621 (zh)', async () => {
    const user = userEvent.setup();
    const passport = memberWithoutFactor();
    const ready = attached(passport.client);
    renderWithAccount(<TwoCalls />, { client: passport.client });
    await ready();
    await user.click(screen.getByRole('button', { name: 'load' }));
    const dialog = await screen.findByRole('dialog', { name: '设置第二验证因素' });
    expect(within(dialog).getByText(/这个组织要求成员使用通行密钥或身份验证器应用/)).toBeTruthy();
    const buttons = within(dialog).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual([
      '创建通行密钥',
      '使用身份验证器应用',
      '关闭',
    ]);
    expect(document.activeElement).toBe(buttons[0]);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(buttons[2]);
    await user.tab();
    expect(document.activeElement).toBe(buttons[0]);
    await user.keyboard('{Escape}');

    await waitFor(() => expect(screen.getByTestId('outcome').textContent).toBe('1621, 1621'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(passport.to(affiliatePaths.subjectInfo)).toHaveLength(2);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'load' }));
  });
});
