import { ErrorCode, passportPaths, webPaths } from '@portico/account-sdk/protocol';
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  sessionQueryKey,
  sessionQueryOptions,
  useDevices,
  useForgetDevice,
  useHasPassword,
  useLogout,
  usePasswordLogin,
  useRegister,
  useSession,
  useSetPassword,
  useSmsLogin,
  useUpdatePassword,
} from '../src';
import { fail, fakePassport, ok, signedInAccount } from './support/fake-passport';
import { renderAccountHook, testQueryClient } from './support/render';

describe('useSession', () => {
  it('is null, not an error, when the passport says NOT_LOGGED_IN', async () => {
    const passport = fakePassport({ [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn) });
    const { result } = renderAccountHook(() => useSession(), { client: passport.client });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toBeNull();
    expect(result.current.error).toBeNull();
  });

  it('is the account when signed in', async () => {
    const passport = fakePassport({ [webPaths.accountInfo]: () => ok(signedInAccount) });
    const { result } = renderAccountHook(() => useSession(), { client: passport.client });
    await waitFor(() => expect(result.current.data?.user_id).toBe('42'));
  });

  it('is an error for any other failure', async () => {
    const passport = fakePassport({ [webPaths.accountInfo]: () => fail(ErrorCode.accountFrozen) });
    const { result } = renderAccountHook(() => useSession(), { client: passport.client });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toMatchObject({ error_code: ErrorCode.accountFrozen });
  });
});

describe('sign-in and sign-out mutations', () => {
  it('an SMS sign-in sends the payload and fills the session from its answer, with no second round trip', async () => {
    let signedIn = false;
    const passport = fakePassport({
      [webPaths.accountInfo]: () => (signedIn ? ok(signedInAccount) : fail(ErrorCode.notLoggedIn)),
      [webPaths.smsLogin]: () => {
        signedIn = true;
        return ok(signedInAccount);
      },
    });
    const { result, queryClient } = renderAccountHook(
      () => ({ session: useSession(), login: useSmsLogin() }),
      { client: passport.client },
    );
    await waitFor(() => expect(result.current.session.data).toBeNull());

    await act(() => result.current.login.mutateAsync({ mobile: '+8613912345678', code: '123456' }));
    expect(passport.to(webPaths.smsLogin)[0]?.body).toMatchObject({
      mobile: '+8613912345678',
      code: '123456',
    });
    // The sign-in answers with the account: it is the session, in the cache when mutateAsync resolved.
    expect(passport.to(webPaths.accountInfo)).toHaveLength(1);
    expect(queryClient.getQueryData(sessionQueryKey)).toMatchObject({ user_id: '42' });
    await waitFor(() => expect(result.current.session.data?.user_id).toBe('42'));
  });

  it("a sign-in drops the previous account's data and fetches the new one's", async () => {
    let user = 'a';
    const device = (id: string) => ({
      id,
      first_seen_at: 1,
      last_seen_at: 2,
      user_agent: 'Firefox',
      current: true,
    });
    const passport = fakePassport({
      [webPaths.accountInfo]: () => ok({ ...signedInAccount, user_id: user }),
      [webPaths.deviceList]: () => ok({ devices: [device(`${user}-device`)] }),
      [webPaths.smsLogin]: () => {
        user = 'b';
        return ok({ ...signedInAccount, user_id: 'b' });
      },
    });
    const { result, queryClient } = renderAccountHook(
      () => ({ devices: useDevices(), login: useSmsLogin() }),
      {
        client: passport.client,
      },
    );
    await waitFor(() => expect(result.current.devices.data?.[0]?.id).toBe('a-device'));
    await act(() => result.current.login.mutateAsync({ mobile: '+8613912345678', code: '123456' }));
    expect(queryClient.getQueryData(['portico', 'account', 'devices'])).toBeUndefined();
    await waitFor(() => expect(result.current.devices.data?.[0]?.id).toBe('b-device'));
  });

  it('a failed sign-in leaves the session alone and exposes the AccountError', async () => {
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [webPaths.userLogin]: () => fail(ErrorCode.wrongCredentials),
    });
    const { result } = renderAccountHook(() => ({ session: useSession(), login: usePasswordLogin() }), {
      client: passport.client,
    });
    await waitFor(() => expect(result.current.session.isSuccess).toBe(true));
    act(() => result.current.login.mutate({ email: 'ada@example.com', password: 'wrong-password' }));
    await waitFor(() => expect(result.current.login.isError).toBe(true));
    expect(result.current.login.error).toMatchObject({ error_code: ErrorCode.wrongCredentials });
    expect(passport.to(webPaths.accountInfo)).toHaveLength(1);
  });

  it('logout asks not to redirect, then the session is null and account data is dropped', async () => {
    let signedIn = true;
    const passport = fakePassport({
      [webPaths.accountInfo]: () => (signedIn ? ok(signedInAccount) : fail(ErrorCode.notLoggedIn)),
      [webPaths.deviceList]: () => ok({ devices: [] }),
      [webPaths.logout]: () => {
        signedIn = false;
        return ok({ next: '/' });
      },
    });
    const { result, queryClient } = renderAccountHook(
      () => ({ session: useSession(), devices: useDevices(), logout: useLogout() }),
      { client: passport.client },
    );
    await waitFor(() => expect(result.current.devices.data).toEqual([]));

    await act(() => result.current.logout.mutateAsync());
    expect(passport.to(webPaths.logout)[0]).toBeDefined();
    expect(queryClient.getQueryData(sessionQueryKey)).toBeNull();
    await waitFor(() => expect(result.current.session.data).toBeNull());
    expect(passport.to(webPaths.logout)[0]?.query).toMatchObject({ not_redirect: '1' });
    expect(
      queryClient.getQueryCache().find({ queryKey: ['portico', 'account', 'devices'] })?.state.data,
    ).toBe(undefined);
  });

  it('forgetting a device refetches the device list', async () => {
    let devices = [
      { id: 'd1', first_seen_at: 1, last_seen_at: 2, user_agent: 'Chrome on macOS', current: false },
    ];
    const passport = fakePassport({
      [webPaths.accountInfo]: () => ok(signedInAccount),
      [webPaths.deviceList]: () => ok({ devices }),
      [webPaths.deviceForget]: ({ body }) => {
        devices = devices.filter((d) => d.id !== body.device_id);
        return ok({});
      },
    });
    const { result } = renderAccountHook(() => ({ devices: useDevices(), forget: useForgetDevice() }), {
      client: passport.client,
    });
    await waitFor(() => expect(result.current.devices.data).toHaveLength(1));
    await act(() => result.current.forget.mutateAsync({ device_id: 'd1' }));
    expect(passport.to(webPaths.deviceForget)[0]?.body).toMatchObject({ device_id: 'd1' });
    await waitFor(() => expect(result.current.devices.data).toEqual([]));
  });
});

describe('sessionQueryOptions', () => {
  it('is the query a route loader fetches: the same key and answer as useSession', async () => {
    const passport = fakePassport({ [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn) });
    const queryClient = testQueryClient();
    await expect(queryClient.fetchQuery(sessionQueryOptions(passport.client))).resolves.toBeNull();
    const { result } = renderAccountHook(() => useSession(), { client: passport.client, queryClient });
    expect(result.current.data).toBeNull();
    // Fresh in the cache: the hook did not ask again.
    expect(passport.to(webPaths.accountInfo)).toHaveLength(1);
  });
});

describe('useRegister', () => {
  it('checks the code, registers with the ticket and signs in; a refused password keeps the ticket', async () => {
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [webPaths.mobileCheckCode]: () => ok({ verify_ticket: 'ticket-1' }),
      [passportPaths.mobileRegister]: ({ body }) =>
        body.password === 'password' ? fail(ErrorCode.passwordTooCommon) : ok(signedInAccount),
    });
    const { result, queryClient } = renderAccountHook(() => useRegister(), { client: passport.client });
    const values = { channel: 'mobile', target: '+8613912345678', code: '123456' } as const;

    await act(() => result.current.mutateAsync({ ...values, password: 'password' }).catch(() => {}));
    await waitFor(() => expect(result.current.error?.error_code).toBe(ErrorCode.passwordTooCommon));
    await act(() => result.current.mutateAsync({ ...values, password: 'a long passphrase' }));

    expect(passport.to(webPaths.mobileCheckCode)).toHaveLength(1);
    expect(passport.to(webPaths.mobileCheckCode)[0]?.body).toMatchObject({ code: '123456', type: '1' });
    expect(passport.to(passportPaths.mobileRegister)[1]?.body).toMatchObject({
      mobile: '+8613912345678',
      verify_ticket: 'ticket-1',
      password: 'a long passphrase',
    });
    expect(queryClient.getQueryData(sessionQueryKey)).toMatchObject({ user_id: '42' });
  });
});

describe('useUpdatePassword', () => {
  it('proves the current password and refetches the account queries', async () => {
    const passport = fakePassport({
      [webPaths.accountInfo]: () => ok(signedInAccount),
      [webPaths.passwordUpdate]: () => ok({}),
    });
    const { result } = renderAccountHook(() => ({ session: useSession(), update: useUpdatePassword() }), {
      client: passport.client,
    });
    await waitFor(() => expect(result.current.session.data?.user_id).toBe('42'));
    await act(() =>
      result.current.update.mutateAsync({ current_password: 'old passphrase', password: 'new passphrase' }),
    );
    expect(passport.to(webPaths.passwordUpdate)[0]?.body).toMatchObject({
      current_password: 'old passphrase',
      password: 'new passphrase',
    });
    expect(passport.to(webPaths.accountInfo)).toHaveLength(2);
  });
});

describe('useHasPassword', () => {
  it('asks nothing while signed out', async () => {
    const passport = fakePassport({ [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn) });
    const { result } = renderAccountHook(() => ({ session: useSession(), has: useHasPassword() }), {
      client: passport.client,
    });
    await waitFor(() => expect(result.current.session.data).toBeNull());
    expect(result.current.has.fetchStatus).toBe('idle');
    expect(passport.to(webPaths.passwordHasSet)).toHaveLength(0);
  });

  it('is refetched after a password is set', async () => {
    let hasSet = false;
    const passport = fakePassport({
      [webPaths.accountInfo]: () => ok(signedInAccount),
      [webPaths.passwordHasSet]: () => ok({ has_set: hasSet }),
      [webPaths.passwordSet]: () => {
        hasSet = true;
        return ok({});
      },
    });
    const { result } = renderAccountHook(() => ({ has: useHasPassword(), set: useSetPassword() }), {
      client: passport.client,
    });
    await waitFor(() => expect(result.current.has.data).toBe(false));
    await act(() => result.current.set.mutateAsync({ password: 'a long new password' }));
    expect(passport.to(webPaths.passwordSet)[0]?.body).toMatchObject({ password: 'a long new password' });
    await waitFor(() => expect(result.current.has.data).toBe(true));
  });
});
