import type { AccountClient, ChallengeCaptcha } from '@portico/account-sdk';
import { DECISION_CONF_FIELD, ErrorCode, webPaths } from '@portico/account-sdk/protocol';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  AccountProvider,
  useAccountClient,
  useAccountLanguage,
  useAccountText,
  usePasswordLogin,
  useSession,
} from '../src';
import { fail, fakePassport, ok, signedInAccount } from './support/fake-passport';
import { renderWithAccount } from './support/render';

const decision = JSON.stringify({ code: 3058, challenge_id: 'ch-1', action: 'login' });

function PasswordSignIn() {
  const login = usePasswordLogin();
  return (
    <>
      <button
        type="button"
        onClick={() => login.mutate({ email: 'ada@example.com', password: 'correct horse' })}
      >
        sign in
      </button>
      {login.isSuccess ? <p>signed in</p> : null}
      {login.isError ? <p>failed {login.error.error_code}</p> : null}
    </>
  );
}

describe('AccountProvider', () => {
  it('answers a challenge through the captcha and resends the sign-in with the pass', async () => {
    const user = userEvent.setup();
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [webPaths.userLogin]: ({ body }) =>
        body.challenge_pass === 'pass-1'
          ? ok(signedInAccount)
          : fail(ErrorCode.challengeRequired, '请完成安全验证', { [DECISION_CONF_FIELD]: decision }),
    });
    const captcha: ChallengeCaptcha = {
      show: vi.fn(async () => ({ status: 'passed' as const, challengeId: 'ch-1', pass: 'pass-1' })),
    };
    renderWithAccount(<PasswordSignIn />, { client: passport.client, captcha, language: 'en' });
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    await screen.findByText('signed in');
    expect(captcha.show).toHaveBeenCalledTimes(1);
    expect(captcha.show).toHaveBeenCalledWith(
      expect.objectContaining({ challenge_id: 'ch-1', code: 3058 }),
      expect.objectContaining({ language: 'en' }),
    );
    const attempts = passport.to(webPaths.userLogin);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]?.body).toMatchObject({ isResend: '1', challenge_pass: 'pass-1' });
  });

  it('without a captcha, a challenge failure reaches the app as it is', async () => {
    const user = userEvent.setup();
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [webPaths.userLogin]: () =>
        fail(ErrorCode.challengeRequired, '请完成安全验证', { [DECISION_CONF_FIELD]: decision }),
    });
    renderWithAccount(<PasswordSignIn />, { client: passport.client });
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    await screen.findByText(`failed ${ErrorCode.challengeRequired}`);
    expect(passport.to(webPaths.userLogin)).toHaveLength(1);
  });

  it('attaches its plugins once under StrictMode and removes them on unmount', async () => {
    const { client } = fakePassport({});
    const plugins = watchPlugins(client);
    const captcha: ChallengeCaptcha = { show: vi.fn() };
    const { unmount } = renderWithAccount(<p>app</p>, { client, captcha, strict: true });
    // The step-up and second-factor plugins are attached once their module has loaded.
    await waitFor(() =>
      expect([...plugins].sort()).toEqual(['challenge', 'second-factor', 'second-verify', 'step-up']),
    );
    unmount();
    expect(plugins.size).toBe(0);
  });

  it('moves the challenge to a new captcha when the prop changes', async () => {
    const { client } = fakePassport({});
    const plugins = watchPlugins(client);
    const first: ChallengeCaptcha = { show: vi.fn() };
    const second: ChallengeCaptcha = { show: vi.fn() };
    const tree = (captcha: ChallengeCaptcha | false) => (
      <AccountProvider client={client} captcha={captcha}>
        <p>app</p>
      </AccountProvider>
    );
    const { rerender } = render(tree(first));
    rerender(tree(second));
    await waitFor(() =>
      expect([...plugins].sort()).toEqual(['challenge', 'second-factor', 'second-verify', 'step-up']),
    );
    rerender(tree(false));
    expect([...plugins].sort()).toEqual(['second-factor', 'second-verify', 'step-up']);
  });

  it('provides the client and language, defaulting to the client language', () => {
    const { client } = fakePassport({});
    function Probe() {
      const t = useAccountText();
      return (
        <p>
          {useAccountClient() === client ? 'same client' : 'other'} {useAccountLanguage()} {t('code.send')}
        </p>
      );
    }
    render(
      <AccountProvider client={client}>
        <Probe />
      </AccountProvider>,
    );
    expect(screen.getByText('same client zh 获取验证码')).toBeTruthy();
  });

  it('creates its own query client with the account defaults when none is given', async () => {
    const passport = fakePassport({ [webPaths.accountInfo]: () => ok(signedInAccount) });
    function Name() {
      const session = useSession();
      return <p>{session.data ? session.data.screen_name : 'loading'}</p>;
    }
    render(
      <AccountProvider client={passport.client}>
        <Name />
      </AccountProvider>,
    );
    await screen.findByText('Ada');
  });

  it('hooks outside a provider throw with the fix', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    function Orphan() {
      useAccountClient();
      return null;
    }
    expect(() => render(<Orphan />)).toThrow(/inside <AccountProvider/);
    spy.mockRestore();
  });

  it('an open second-verification dialog closes when the provider unmounts', async () => {
    const user = userEvent.setup();
    const passport = fakePassport({
      [webPaths.userLogin]: () => fail(ErrorCode.secondVerify, 'x', { sms_code_key: 'k' }),
    });
    let settled: unknown;
    function Start() {
      const login = usePasswordLogin();
      return (
        <button
          type="button"
          onClick={() =>
            login.mutateAsync({ email: 'ada@example.com', password: 'pw' }).catch((error) => {
              settled = error;
            })
          }
        >
          go
        </button>
      );
    }
    const { unmount } = renderWithAccount(<Start />, { client: passport.client });
    await user.click(screen.getByRole('button', { name: 'go' }));
    await screen.findByRole('dialog');
    act(() => unmount());
    await waitFor(() => expect(settled).toMatchObject({ error_code: 2046, description: 'SECOND_VALID' }));
  });
});

/** The plugins attached to a client right now, by name, watched through `client.use`. */
function watchPlugins(client: AccountClient): Set<string> {
  const active = new Set<string>();
  const use = client.use.bind(client);
  client.use = (plugin) => {
    const remove = use(plugin);
    active.add(plugin.name);
    return () => {
      remove();
      active.delete(plugin.name);
    };
  };
  return active;
}
