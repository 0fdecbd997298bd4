import { ErrorCode, webPaths } from '@portico/account-sdk/protocol';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fail, fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { createAuthRoutes } from '../src';
import { renderAuthApp } from './support/app';

const signedOut = () => fakePassport({ [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn) });

describe('createAuthRoutes', () => {
  it('mounts login (with its index), reset-password and sign-up, under a base path when given one', () => {
    const { client } = signedOut();
    const queryClient = {} as never;
    const paths = (routes: ReturnType<typeof createAuthRoutes>) => routes.map((route) => route.path);
    expect(paths(createAuthRoutes({ client, queryClient }))).toEqual([
      '/login',
      '/reset-password',
      '/sign-up',
    ]);
    expect(paths(createAuthRoutes({ client, queryClient, basePath: '/account/' }))).toEqual([
      '/account/login',
      '/account/reset-password',
      '/account/sign-up',
    ]);
    expect(paths(createAuthRoutes({ client, queryClient, screens: { signUp: false } }))).toEqual([
      '/login',
      '/reset-password',
    ]);
    // The waitlist page only when asked for (issue 18).
    expect(
      paths(createAuthRoutes({ client, queryClient, basePath: '/a', screens: { joinWaitlist: true } })),
    ).toEqual(['/a/login', '/a/reset-password', '/a/sign-up', '/a/join-waitlist']);
    // Open authorization's consent page, its own lazy chunk, only when asked for.
    expect(paths(createAuthRoutes({ client, queryClient, authorization: true }))).toEqual([
      '/login',
      '/reset-password',
      '/sign-up',
      '/authorization',
    ]);
  });

  it('says how to fix the wiring when the client or query client is missing', () => {
    expect(() => createAuthRoutes({} as never)).toThrow(/needs \{ client, queryClient \}/);
    expect(() =>
      createAuthRoutes({ client: signedOut().client, queryClient: {} as never, basePath: 'sso' }),
    ).toThrow(/basePath must start with '\/'/);
  });

  it("shows the app's copy (a function of the language and the query) and only the app's methods", async () => {
    const { client } = signedOut();
    renderAuthApp(
      client,
      '/login?service=https%3A%2F%2Fdocs.example',
      {
        methods: ['sms', 'password'],
        keepParams: ['service'],
        copy: {
          login: {
            title: ({ language }) => (language === 'en' ? 'Sign in to Docs' : '登录文档站'),
            subtitle: ({ search }) => `to continue to ${new URL(search.get('service') ?? '').host}`,
          },
        },
      },
      'en',
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to Docs' })).toBeTruthy();
    expect(screen.getByText('to continue to docs.example')).toBeTruthy();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['SMS code', 'Password']);
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe(
      '/sign-up?service=https%3A%2F%2Fdocs.example',
    );
  });

  it('a signed-in visit to login goes where the policy says, told the account and the query', async () => {
    const { client } = fakePassport({ [webPaths.accountInfo]: () => ok(signedInAccount) });
    const afterSignIn = vi.fn(() => '/workbench');
    const { router } = renderAuthApp(client, '/login?next=/x', { afterSignIn });
    await screen.findByText('landed');
    expect(router.state.location.pathname).toBe('/workbench');
    expect(afterSignIn).toHaveBeenCalledWith({
      account: expect.objectContaining({ user_id: '42' }),
      search: expect.any(URLSearchParams),
    });
    const [[{ search }]] = afterSignIn.mock.calls as unknown as [[{ search: URLSearchParams }]];
    expect(search.get('next')).toBe('/x');
  });

  it('signs in by SMS code, fills the session from the answer and goes to a safe next', async () => {
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [webPaths.sendCode]: () => ok({ mobile: '+86******5678', expires_in: 600 }),
      [webPaths.smsLogin]: () => ok(signedInAccount),
    });
    const { router, queryClient } = renderAuthApp(passport.client, '/login?next=/extension');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('手机号'), '13912345678');
    await user.click(screen.getByRole('button', { name: '获取验证码' }));
    await user.type(screen.getByLabelText('验证码'), '123456');
    await user.click(screen.getByRole('button', { name: '登录' }));
    await screen.findByText('landed');
    expect(router.state.location.pathname).toBe('/extension');
    expect(passport.to(webPaths.smsLogin)[0]?.body).toMatchObject({
      mobile: '+8613912345678',
      code: '123456',
    });
    expect(queryClient.getQueryData(['portico', 'account', 'session'])).toMatchObject({ user_id: '42' });
    // The loader's one look; the sign-in's answer stood in for a second one.
    expect(passport.to(webPaths.accountInfo)).toHaveLength(1);
  });

  it('without a usable next, a sign-in goes to defaultNext, never back to a signed-out screen', async () => {
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [webPaths.userLogin]: () => ok(signedInAccount),
    });
    const { router } = renderAuthApp(passport.client, '/login?next=/sign-up', {
      defaultNext: '/workbench',
      methods: ['password'],
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('手机号、邮箱或用户名'), 'ada');
    await user.type(screen.getByLabelText('密码'), 'a long passphrase');
    await user.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/workbench'));
    // One method: its form alone, no tabs.
    expect(screen.queryByRole('tablist')).toBeNull();
  });
});
