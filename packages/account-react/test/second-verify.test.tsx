import { isAccountError } from '@portico/account-sdk';
import { ErrorCode, SECOND_VALID, webPaths } from '@portico/account-sdk/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorMessage, sessionQueryKey, usePasskeyAutofill, useSmsLogin } from '../src';
import { lazyPanel } from '../src/second-verify/lazy-panel';
import { panels } from '../src/second-verify/panels';
import { fail, fakePassport, ok, signedInAccount } from './support/fake-passport';
import { renderWithAccount } from './support/render';

const RIGHT_CODE = '654321';

/** A passport whose sms_login answers 2046 for a new device; the continuation accepts RIGHT_CODE. */
function newDevicePassport() {
  let signedIn = false;
  return fakePassport({
    [webPaths.accountInfo]: () => (signedIn ? ok(signedInAccount) : fail(ErrorCode.notLoggedIn)),
    [webPaths.smsLogin]: () =>
      fail(ErrorCode.secondVerify, '当前设备需要二次验证', {
        sms_code_key: 'key-1',
        mobile: '+86******5678',
      }),
    [webPaths.sendCode]: () => ok({ mobile: '+86******5678', retry_time: 60, expires_in: 600 }),
    [webPaths.smsLoginContinue]: ({ body }) => {
      if (body.code !== RIGHT_CODE) return fail(ErrorCode.codeWrong);
      signedIn = true;
      return ok(signedInAccount);
    },
  });
}

function SignIn() {
  const login = useSmsLogin();
  return (
    <div>
      <button type="button" onClick={() => login.mutate({ mobile: '+8613912345678', code: '111111' })}>
        sign in
      </button>
      {login.isSuccess ? <p>signed in as {login.data.user_id}</p> : null}
      {login.isError ? (
        <p data-testid="outcome">
          {isAccountError(login.error) ? `${login.error.error_code} ${login.error.description}` : 'other'}
        </p>
      ) : null}
      <ErrorMessage error={login.error} />
    </div>
  );
}

describe('second verification dialog', () => {
  it('opens on 2046, sends the code by sms_code_key, and completes the sign-in through sms_login_continue', async () => {
    const user = userEvent.setup();
    const passport = newDevicePassport();
    renderWithAccount(<SignIn />, { client: passport.client });
    const start = screen.getByRole('button', { name: 'sign in' });
    await user.click(start);

    const dialog = await screen.findByRole('dialog', { name: '身份验证' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.textContent).toContain('+86******5678');
    const send = within(dialog).getByRole('button', { name: '获取验证码' });
    expect(document.activeElement).toBe(send);

    await user.keyboard('{Enter}');
    await waitFor(() => expect(passport.to(webPaths.sendCode)).toHaveLength(1));
    expect(passport.to(webPaths.sendCode)[0]?.body).toMatchObject({ sms_code_key: 'key-1', type: '24' });
    await within(dialog).findByRole('button', { name: /秒后可重发/ });
    const field = within(dialog).getByLabelText('验证码');
    await waitFor(() => expect(document.activeElement).toBe(field));

    await user.keyboard(`${RIGHT_CODE}{Enter}`);
    await screen.findByText('signed in as 42');
    expect(passport.to(webPaths.smsLoginContinue).map((r) => r.body)).toEqual([
      expect.objectContaining({ sms_code_key: 'key-1', code: RIGHT_CODE }),
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    // Focus went back where it was before the dialog.
    expect(document.activeElement).toBe(start);
  });

  it('reopens with the error after a wrong code, keeping the resend countdown', async () => {
    const user = userEvent.setup();
    const passport = newDevicePassport();
    renderWithAccount(<SignIn />, { client: passport.client });
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    const first = await screen.findByRole('dialog');
    await user.click(within(first).getByRole('button', { name: '获取验证码' }));
    await within(first).findByRole('button', { name: /秒后可重发/ });
    await user.type(within(first).getByLabelText('验证码'), '000000');
    await user.click(within(first).getByRole('button', { name: '验证并登录' }));

    const again = await screen.findByRole('dialog');
    await within(again).findByText('验证码错误');
    const field = within(again).getByLabelText<HTMLInputElement>('验证码');
    expect(field.value).toBe('');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(within(again).getByRole<HTMLButtonElement>('button', { name: /秒后可重发/ }).disabled).toBe(true);
    expect(passport.to(webPaths.sendCode)).toHaveLength(1);

    await user.type(field, RIGHT_CODE);
    await user.click(within(again).getByRole('button', { name: '验证并登录' }));
    await screen.findByText('signed in as 42');
    expect(passport.to(webPaths.smsLoginContinue)).toHaveLength(2);
  });

  it('asks for all 6 digits before submitting', async () => {
    const user = userEvent.setup();
    const passport = newDevicePassport();
    renderWithAccount(<SignIn />, { client: passport.client });
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('验证码'), '123');
    await user.click(within(dialog).getByRole('button', { name: '验证并登录' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('请输入 6 位验证码');
    expect(passport.to(webPaths.smsLoginContinue)).toHaveLength(0);
  });

  it('closing it rejects the sign-in with SECOND_VALID and shows no error text', async () => {
    const user = userEvent.setup();
    const passport = newDevicePassport();
    renderWithAccount(<SignIn />, { client: passport.client, language: 'en' });
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Verify it’s you' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    expect((await screen.findByTestId('outcome')).textContent).toBe(`2046 ${SECOND_VALID}`);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(passport.to(webPaths.smsLoginContinue)).toHaveLength(0);
  });

  it('Escape closes it too', async () => {
    const user = userEvent.setup();
    const passport = newDevicePassport();
    renderWithAccount(<SignIn />, { client: passport.client });
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    expect((await screen.findByTestId('outcome')).textContent).toBe(`2046 ${SECOND_VALID}`);
  });

  it('keeps Tab inside the dialog', async () => {
    const user = userEvent.setup();
    const passport = newDevicePassport();
    renderWithAccount(<SignIn />, { client: passport.client });
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    const dialog = await screen.findByRole('dialog');
    for (let i = 0; i < 6; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await user.tab({ shift: true });
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('hides the page behind from assistive technology, and a click beside it keeps the sign-in going', async () => {
    const user = userEvent.setup();
    const passport = newDevicePassport();
    renderWithAccount(<SignIn />, { client: passport.client });
    const start = screen.getByRole('button', { name: 'sign in' });
    await user.click(start);
    const dialog = await screen.findByRole('dialog', { name: '身份验证' });
    expect(start.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'sign in' })).toBeNull();

    const overlay = dialog.parentElement as HTMLElement;
    expect(overlay.className).toBe('portico-dialog-overlay');
    await user.pointer({ keys: '[MouseLeft]', target: overlay });
    expect(screen.getByRole('dialog', { name: '身份验证' })).toBe(dialog);
    expect(screen.queryByTestId('outcome')).toBeNull();

    await user.keyboard('{Escape}');
    await screen.findByTestId('outcome');
    expect(start.closest('[aria-hidden="true"]')).toBeNull();
  });
});

describe('second verification dialog: its panel fails to load', () => {
  const real = panels.sms;
  afterEach(() => {
    panels.sms = real;
  });

  it('says it is loading, and a chunk that fails to load closes it (the sign-in rejects, the page stays); the next opening loads it again', async () => {
    // The chunk of an old deploy, or a dropped connection: the first import rejects, the next one works.
    let failLoad: (error: Error) => void = () => {};
    const load = vi
      .fn<() => ReturnType<typeof real.preload>>()
      .mockImplementationOnce(
        () =>
          new Promise((_resolve, reject) => {
            failLoad = reject;
          }),
      )
      .mockImplementation(() => import('../src/second-verify/sms-panel').then((module) => module.SmsPanel));
    panels.sms = lazyPanel(load);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    const passport = newDevicePassport();
    renderWithAccount(<SignIn />, { client: passport.client, language: 'en' });
    // The sign-in form started loading it when it mounted.
    await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await user.click(screen.getByRole('button', { name: 'sign in' }));

    expect((await screen.findByText('Loading verification…')).getAttribute('role')).toBe('status');
    failLoad(new TypeError('Failed to fetch dynamically imported module'));

    expect((await screen.findByTestId('outcome')).textContent).toBe(`2046 ${SECOND_VALID}`);
    expect(screen.queryByText('Loading verification…')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'sign in' })).toBeTruthy();
    errors.mockRestore();

    await user.click(screen.getByRole('button', { name: 'sign in' }));
    await screen.findByRole('dialog', { name: 'Verify it’s you' });
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('second verification dialog: the factor picker', () => {
  /** 2046 of an account with an authenticator app and recovery codes. */
  function factorPassport() {
    let signedIn = false;
    return fakePassport({
      [webPaths.accountInfo]: () => (signedIn ? ok(signedInAccount) : fail(ErrorCode.notLoggedIn)),
      [webPaths.smsLogin]: () =>
        fail(ErrorCode.secondVerify, '当前设备需要二次验证', {
          sms_code_key: 'key-1',
          mobile: '+86******5678',
          methods: ['sms', 'totp', 'recovery_code'],
        }),
      [webPaths.smsLoginContinue]: ({ body }) => {
        if (body.method !== 'recovery_code' || body.code !== 'abcde-fghjk') return fail(ErrorCode.codeWrong);
        signedIn = true;
        return ok(signedInAccount);
      },
    });
  }

  it('offers every way the account has, by keyboard, and continues with a recovery code', async () => {
    const user = userEvent.setup();
    const passport = factorPassport();
    renderWithAccount(<SignIn />, { client: passport.client });
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    const dialog = await screen.findByRole('dialog', { name: '身份验证' });
    const group = within(dialog).getByRole('group', { name: '验证方式' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((radio) => radio.parentElement?.textContent?.trim())).toEqual([
      '短信验证码 +86******5678',
      '身份验证器应用',
      '恢复码',
    ]);
    await user.click(within(group).getByRole('radio', { name: '恢复码' }));
    await user.type(within(dialog).getByRole('textbox', { name: '输入恢复码' }), 'abcde-fghjk');
    await user.click(within(dialog).getByRole('button', { name: '验证并登录' }));
    await screen.findByText('signed in as 42');
    expect(passport.to(webPaths.smsLoginContinue).map((r) => r.body)).toEqual([
      expect.objectContaining({ sms_code_key: 'key-1', code: 'abcde-fghjk', method: 'recovery_code' }),
    ]);
    // No SMS was sent: the person chose another way.
    expect(passport.to(webPaths.sendCode)).toHaveLength(0);
  });
});

describe('second verification dialog: a sign-in completed another way', () => {
  /**
   * The browser's WebAuthn with conditional mediation (a test double of `navigator.credentials`): the
   * autofill's wait answers with a passkey when the test picks it.
   */
  function browserWithPasskey() {
    let answer: (credential: unknown) => void = () => {};
    const waiting = new Promise((resolve) => {
      answer = resolve;
    });
    vi.stubGlobal(
      'PublicKeyCredential',
      Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: async () => true }),
    );
    const get = vi.fn((_options: CredentialRequestOptions) => waiting);
    Object.defineProperty(navigator, 'credentials', { value: { get }, configurable: true });
    const bytes = new Uint8Array([1, 2, 3]).buffer;
    const pick = () =>
      answer({
        id: 'AQID',
        rawId: bytes,
        type: 'public-key',
        response: { authenticatorData: bytes, clientDataJSON: bytes, signature: bytes, userHandle: bytes },
        getClientExtensionResults: () => ({}),
        authenticatorAttachment: 'platform',
      });
    return { get, pick };
  }
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'credentials');
  });

  /** The sign-in page: the SMS sign-in, and the identifier field whose autofill offers passkeys. */
  function SignInPage() {
    usePasskeyAutofill();
    return (
      <>
        <input aria-label="account" autoComplete="username webauthn" />
        <SignIn />
      </>
    );
  }

  it('closes when a passkey picked in the autofill signs in meanwhile (the dialog stayed open with a stale ticket)', async () => {
    const user = userEvent.setup();
    const browser = browserWithPasskey();
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [webPaths.smsLogin]: () =>
        fail(ErrorCode.secondVerify, '当前设备需要二次验证', {
          sms_code_key: 'key-1',
          mobile: '+86******5678',
        }),
      '/passport/passkey/login/options/': () => ok({ options: { challenge: 'AQID', rpId: 'localhost' } }),
      '/passport/passkey/login/verify/': () => ok(signedInAccount),
    });
    const { queryClient } = renderWithAccount(<SignInPage />, { client: passport.client });
    await waitFor(() => expect(browser.get).toHaveBeenCalled());
    expect(browser.get.mock.calls[0]?.[0].mediation).toBe('conditional');

    await user.click(screen.getByRole('button', { name: 'sign in' }));
    await screen.findByRole('dialog', { name: '身份验证' });
    browser.pick();

    // The passkey's sign-in is the session; the dialog goes, and the SMS sign-in it answered rejects as
    // closed, its ticket never sent.
    await waitFor(() => expect(queryClient.getQueryData(sessionQueryKey)).toEqual(signedInAccount));
    expect((await screen.findByTestId('outcome')).textContent).toBe(`2046 ${SECOND_VALID}`);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(passport.to(webPaths.smsLoginContinue)).toHaveLength(0);
  });

  it('stays closed when a code sent before the passkey signed in comes back wrong (it does not reopen over the signed-in page)', async () => {
    const user = userEvent.setup();
    const browser = browserWithPasskey();
    let answerCode: (envelope: unknown) => void = () => {};
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [webPaths.smsLogin]: () =>
        fail(ErrorCode.secondVerify, '当前设备需要二次验证', {
          sms_code_key: 'key-1',
          mobile: '+86******5678',
        }),
      // The code's answer is held until the passkey has signed in.
      [webPaths.smsLoginContinue]: () =>
        new Promise((resolve) => {
          answerCode = resolve;
        }),
      '/passport/passkey/login/options/': () => ok({ options: { challenge: 'AQID', rpId: 'localhost' } }),
      '/passport/passkey/login/verify/': () => ok(signedInAccount),
    });
    const { queryClient } = renderWithAccount(<SignInPage />, { client: passport.client });
    await waitFor(() => expect(browser.get).toHaveBeenCalled());

    await user.click(screen.getByRole('button', { name: 'sign in' }));
    const dialog = await screen.findByRole('dialog', { name: '身份验证' });
    await user.type(within(dialog).getByLabelText('验证码'), '000000');
    await user.click(within(dialog).getByRole('button', { name: '验证并登录' }));
    await waitFor(() => expect(passport.to(webPaths.smsLoginContinue)).toHaveLength(1));
    browser.pick();
    await waitFor(() => expect(queryClient.getQueryData(sessionQueryKey)).toEqual(signedInAccount));

    answerCode(fail(ErrorCode.codeWrong));
    expect((await screen.findByTestId('outcome')).textContent).toBe(`2046 ${SECOND_VALID}`);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(passport.to(webPaths.smsLoginContinue)).toHaveLength(1);
  });
});
