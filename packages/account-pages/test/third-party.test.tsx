import { ErrorCode, thirdPartyPaths, webPaths } from '@portico/account-sdk/protocol';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fail, fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { createAuthRoutes } from '../src';
import { OAUTH_LAST_WAY_IN, OAUTH_NOT_LINKED } from '../src/third-party/start';
import { loopbackOrigin } from '../src/third-party/twice-redirect';
import { renderAuthApp } from './support/app';

afterEach(() => sessionStorage.clear());

/** Lazy chunks and queries on a busy machine: a generous bound, never a timed assertion. */
const SLOW = { timeout: 15_000 };

const signedOut = () => fail(ErrorCode.notLoggedIn);
const pending = {
  profile_key: 'pk-1',
  platform: 'google',
  name: 'Alice Example',
  avatar_url: '',
  email: '',
  email_verified: false,
  email_registered: false,
};

describe('third-party sign-in screens', () => {
  it('keeps the failure numbers the screens branch on in step with the catalogue', () => {
    expect(OAUTH_NOT_LINKED).toBe(ErrorCode.oauthNotLinked);
    expect(OAUTH_LAST_WAY_IN).toBe(ErrorCode.oauthLastWayIn);
  });

  it('mounts the callback pages at the root only when the app turns third-party sign-in on', () => {
    const { client } = fakePassport({});
    const paths = (thirdParty: boolean) =>
      createAuthRoutes({ client, queryClient: {} as never, basePath: '/account', thirdParty }).map(
        (r) => r.path,
      );
    expect(paths(false)).toEqual(['/account/login', '/account/reset-password', '/account/sign-up']);
    expect(paths(true)).toEqual([
      '/account/login',
      '/account/reset-password',
      '/account/sign-up',
      '/github-oauth-callback',
      '/google-oauth-callback',
      '/wechat-oauth-callback',
      '/github-oauth-twice-redirect',
    ]);
  });

  it('relays a GitHub callback to loopback origins only', () => {
    expect(loopbackOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    expect(loopbackOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(loopbackOrigin('https://evil.example')).toBeNull();
    expect(loopbackOrigin('http://localhost.evil.example')).toBeNull();
    expect(loopbackOrigin('http://localhost:5173/path')).toBeNull();
    expect(loopbackOrigin('javascript:alert(1)')).toBeNull();
    expect(loopbackOrigin(null)).toBeNull();
  });

  it('shows the configured providers under the sign-in panel', async () => {
    const { client } = fakePassport({
      [webPaths.accountInfo]: signedOut,
      [thirdPartyPaths.providers]: () => ok({ providers: ['google'], linked: [], can_unbind: {} }),
    });
    renderAuthApp(client, '/login', { thirdParty: true }, 'en');
    expect(await screen.findByRole('button', { name: 'Continue with Google' }, SLOW)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continue with GitHub' })).toBeNull();
  });

  it.each([
    ['zh', '使用微信登录'],
    ['en', 'Continue with WeChat'],
  ] as const)('names WeChat in the page’s language (%s)', async (language, name) => {
    const { client } = fakePassport({
      [webPaths.accountInfo]: signedOut,
      [thirdPartyPaths.providers]: () => ok({ providers: ['wechat'], linked: [], can_unbind: {} }),
    });
    renderAuthApp(client, '/login', { thirdParty: true }, language);
    expect(await screen.findByRole('button', { name }, SLOW)).toBeTruthy();
  });

  it('exchanges the code on the callback page and offers link-or-create for an unlinked identity', async () => {
    const { client, received } = fakePassport({
      [webPaths.accountInfo]: signedOut,
      [webPaths.authLoginOnly]: () => fail(ErrorCode.oauthNotLinked, 'not linked', pending),
      [webPaths.authLogin]: () => ok(signedInAccount),
    });
    const { router } = renderAuthApp(client, '/google-oauth-callback?code=c1&state=s1&iss=http%3A%2F%2Fidp', {
      thirdParty: true,
      defaultNext: '/home',
    });
    expect(await screen.findByRole('heading', { level: 1, name: '关联你的 Google 账号' }, SLOW)).toBeTruthy();
    const exchange = received.find((r) => r.path === webPaths.authLoginOnly);
    expect(exchange?.body).toMatchObject({
      platform_app_id: 'google',
      code: 'c1',
      state: 's1',
      iss: 'http://idp',
    });
    expect(screen.getByRole('tab', { name: '用短信验证码登录并关联' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '用 Google 创建新账号' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'), SLOW);
    const create = received.find((r) => r.path === webPaths.authLogin);
    expect(create?.body).toMatchObject({ platform_app_id: 'google', profile_key: 'pk-1' });
  });

  it('links instead of signing in when the account centre started the flow', async () => {
    sessionStorage.setItem(
      'portico.third-party',
      JSON.stringify({ action: 'bind', next: '/account/linked' }),
    );
    const { client, received } = fakePassport({
      [webPaths.accountInfo]: () => ok(signedInAccount),
      [webPaths.authBind]: () => ok({ linked: [] }),
    });
    const { router } = renderAuthApp(client, '/github-oauth-callback?code=c2&state=s2', { thirdParty: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/linked'), SLOW);
    expect(received.find((r) => r.path === webPaths.authBind)?.body).toMatchObject({
      code: 'c2',
      state: 's2',
    });
    expect(received.some((r) => r.path === webPaths.authLoginOnly)).toBe(false);
  });
  it('says in words that the person cancelled at the provider, never its raw error or its own text', async () => {
    const { client, received } = fakePassport({ [webPaths.accountInfo]: signedOut });
    renderAuthApp(
      client,
      '/github-oauth-callback?error=access_denied&error_description=The+user+has+denied+your+application',
      { thirdParty: true },
      'en',
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'The GitHub sign-in did not finish' }, SLOW),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('You cancelled at GitHub; you are not signed in.');
    expect(document.body.textContent).not.toMatch(/access_denied|has denied/);
    expect(screen.getByRole('link', { name: 'Back to sign-in' }).className).toBe('button button-secondary');
    expect(received.some((r) => r.path === webPaths.authLoginOnly)).toBe(false);
  });

  it('says the provider sent no result when the callback has no code, not to enter a code', async () => {
    const { client } = fakePassport({ [webPaths.accountInfo]: signedOut });
    renderAuthApp(client, '/google-oauth-callback?state=s1', { thirdParty: true });
    expect(await screen.findByRole('alert', {}, SLOW)).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Google 没有带回登录结果。请返回登录后再试一次。');
    expect(document.body.textContent).not.toMatch(/验证码/);
  });

  it('says WeChat’s refusal on the phone (the state alone, no code) as a cancellation, in the page’s language', async () => {
    const { client, received } = fakePassport({ [webPaths.accountInfo]: signedOut });
    renderAuthApp(client, '/wechat-oauth-callback?state=s1', { thirdParty: true });
    expect(await screen.findByRole('alert', {}, SLOW)).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('你在微信取消了登录，没有登录任何账号。');
    expect(received.some((r) => r.path === webPaths.authLoginOnly)).toBe(false);
  });

  it('says an enterprise provider’s refusal in words (en)', async () => {
    const { client } = fakePassport({ [webPaths.accountInfo]: signedOut });
    renderAuthApp(
      client,
      '/enterprise-sso-callback?error=server_error&error_description=Something+broke',
      { enterpriseSso: true },
      'en',
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Single sign-on did not finish' }, SLOW),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toMatch(
      /^Your organisation’s sign-in page did not complete/,
    );
    expect(document.body.textContent).not.toMatch(/server_error|Something broke/);
  });
});
