import {
  ErrorCode,
  openPaths,
  passportPaths,
  thirdPartyPaths,
  webPaths,
} from '@portico/account-sdk/protocol';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, fakePassport, ok, signedInAccount } from '../../account-react/test/support/fake-passport';
import { AuthorizedApps, createLanguageStore } from '../src';
import { renderAuthApp, renderInProvider } from './support/app';

/** The open family answers the auth envelope. */
const auth = (data: unknown) => ({ status_code: 0, data });

const info = (user: unknown) => ({
  client_key: 'c1',
  app_name: 'Video Club',
  app_icon: '',
  scope: [{ name: 'user_info', zh: '获取你的昵称和头像', en: 'Read your name and picture' }],
  optionalScope: [{ name: 'video.list', zh: '读取你的视频列表', en: 'Read your video list' }],
  user,
});

const ada = { user_id: '42', name: 'Ada', avatar_url: '' };

/** Lazy chunks and queries on a busy machine: a generous bound, never a timed assertion. */
const SLOW = { timeout: 15_000 };

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('the consent page (/authorization)', () => {
  it('shows the app and its scopes; an optional scope switched off is left out of the approval', async () => {
    const passport = fakePassport({
      [webPaths.accountInfo]: () => ok(signedInAccount),
      [openPaths.authInfoV2]: () => auth(info({ user_id: '42', name: 'Ada', avatar_url: '' })),
      [openPaths.webAuth]: () => auth({ redirect_url: 'about:blank' }),
    });
    renderAuthApp(passport.client, '/authorization?interaction=i-1', { authorization: true }, 'en');
    const user = userEvent.setup();
    expect(await screen.findByText('Video Club wants to use your Portico account')).toBeTruthy();
    expect(screen.getByText('Read your name and picture')).toBeTruthy();
    expect(screen.getByText(/Signed in as Ada/)).toBeTruthy();
    const optional = screen.getByRole('switch', { name: 'Read your video list' });
    expect((optional as HTMLInputElement).checked).toBe(true);
    await user.click(optional);
    expect((optional as HTMLInputElement).checked).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(passport.to(openPaths.webAuth)).toHaveLength(1));
    expect(passport.to(openPaths.webAuth)[0]?.body).toMatchObject({
      interaction: 'i-1',
      approve: '1',
      scope: '',
    });
    expect(passport.to(openPaths.authInfoV2)[0]?.query).toMatchObject({ interaction: 'i-1' });
  });

  it('asks a signed-out person to sign in first (zh): the sign-in panel, no Approve', async () => {
    const passport = fakePassport({
      [openPaths.authInfoV2]: () => auth(info(null)),
    });
    renderAuthApp(passport.client, '/authorization?interaction=i-2', { authorization: true });
    expect(await screen.findByText('请先登录，再决定是否授权')).toBeTruthy();
    expect(screen.getByRole('tab', { name: '验证码登录' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '同意授权' })).toBeNull();
  });

  it('offers the QR tab to a signed-out person; a QR sign-in comes back to the same question, signed in', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let signedIn = false;
    const states = ['scanned', 'confirmed'];
    const passport = fakePassport({
      [webPaths.accountInfo]: () => (signedIn ? ok(signedInAccount) : fail(ErrorCode.notLoggedIn)),
      [openPaths.authInfoV2]: () => auth(info(signedIn ? ada : null)),
      [webPaths.getQrcode]: () =>
        ok({
          token: 'token-1',
          qrcode_index_url: 'https://passport.test/app/qr?token=token-1',
          expires_in: 120,
          expires_at: Date.now() + 120_000,
        }),
      [webPaths.checkQrconnect]: () => {
        const status = states.shift() ?? 'new';
        return ok({ status, expires_in: 100, ...(status === 'scanned' ? { number: 64 } : {}) });
      },
      [webPaths.webLogin]: () => {
        signedIn = true;
        return ok({ ...signedInAccount, redirect_url: '/authorization?interaction=i-3' });
      },
    });
    renderAuthApp(passport.client, '/authorization?interaction=i-3', { authorization: true }, 'en');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('tab', { name: 'QR code' }, SLOW));
    expect(screen.getByRole('tab', { name: 'QR code' }).getAttribute('aria-selected')).toBe('true');
    const image = await screen.findByRole('img', { name: 'Sign-in QR code' }, SLOW);
    expect(image.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    // The code is asked for with this page as `next`.
    expect(passport.to(webPaths.getQrcode)[0]?.query.next).toBe('/authorization?interaction=i-3');

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await screen.findByText('64')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    // Signed in by the phone: the question is read again, and the person can now answer it.
    expect(await screen.findByRole('button', { name: 'Approve' }, SLOW)).toBeTruthy();
    expect(screen.getByText(/Signed in as Ada/)).toBeTruthy();
    expect(passport.to(webPaths.webLogin)[0]?.body).toMatchObject({ token: 'token-1' });
    expect(passport.to(openPaths.authInfoV2).at(-1)?.query).toMatchObject({ interaction: 'i-3' });
  });

  it('offers the configured third-party providers; the round trip returns to the consent page, signed in', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...globalThis.location, assign });
    const passport = fakePassport({
      [webPaths.accountInfo]: () => fail(ErrorCode.notLoggedIn),
      [openPaths.authInfoV2]: () => auth(info(null)),
      [thirdPartyPaths.providers]: () => ok({ providers: ['github', 'google'], linked: [], can_unbind: {} }),
    });
    renderAuthApp(
      passport.client,
      '/authorization?interaction=i-4',
      { authorization: true, thirdParty: true },
      'en',
    );
    const github = await screen.findByRole('button', { name: 'Continue with GitHub' }, SLOW);
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
    await userEvent.click(github);
    // The passport's redirect to the provider, with this page as `next`.
    expect(assign).toHaveBeenCalledTimes(1);
    const target = new URL(String(assign.mock.calls[0]?.[0]));
    expect(`${target.origin}${target.pathname}`).toBe(`https://passport.test${passportPaths.authLogin}`);
    expect(target.searchParams.get('platform_app_id')).toBe('github');
    expect(target.searchParams.get('next')).toBe('/authorization?interaction=i-4');

    // Back from the provider (a new document): the callback page signs in and returns to the question.
    cleanup();
    vi.unstubAllGlobals();
    const back = fakePassport({
      [webPaths.accountInfo]: () => ok(signedInAccount),
      [webPaths.authLoginOnly]: () => ok(signedInAccount),
      [openPaths.authInfoV2]: () => auth(info(ada)),
    });
    const { router } = renderAuthApp(
      back.client,
      '/github-oauth-callback?code=c4&state=s4',
      { authorization: true, thirdParty: true, defaultNext: '/home' },
      'en',
    );
    expect(await screen.findByRole('button', { name: 'Approve' }, SLOW)).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/authorization?interaction=i-4',
    );
    expect(back.to(webPaths.authLoginOnly)[0]?.body).toMatchObject({ platform_app_id: 'github', code: 'c4' });
    expect(back.to(openPaths.authInfoV2)[0]?.query).toMatchObject({ interaction: 'i-4' });
  });

  it('offers to start an expired request again only when the passport says this browser can', async () => {
    const expired = (resumable: boolean) =>
      fakePassport({
        [webPaths.accountInfo]: () => ok(signedInAccount),
        [openPaths.authInfoV2]: () => ({
          status_code: 1701,
          status_msg: 'expired',
          data: { error_code: 1701, description: 'expired', resumable },
        }),
      });
    renderAuthApp(expired(true).client, '/authorization?interaction=gone', { authorization: true }, 'en');
    const again = await screen.findByRole('link', { name: 'Start this request again' });
    expect(screen.getByText('This request has expired.')).toBeTruthy();
    expect(again.getAttribute('href')).toBe(`https://passport.test${openPaths.connectResume}`);
    cleanup();
    renderAuthApp(expired(false).client, '/authorization?interaction=gone', { authorization: true }, 'en');
    expect(await screen.findByText(/This request is invalid or has expired/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Start this request again' })).toBeNull();
  });

  it('speaks the language the app asked for (ui_locales), for this visit only', async () => {
    const passport = fakePassport({
      [openPaths.authInfoV2]: () => auth({ ...info(ada), ui_language: 'en' }),
    });
    const storage = new Map<string, string>([['portico.language', 'zh']]);
    const languageStore = createLanguageStore({
      storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) },
      document: null,
    });
    renderAuthApp(
      passport.client,
      '/authorization?interaction=i-9',
      { authorization: true, languageStore },
      'zh',
    );
    expect(
      await screen.findByText('Video Club wants to use your Portico account', undefined, SLOW),
    ).toBeTruthy();
    expect(languageStore.get()).toBe('en');
    // The person's own remembered choice is left as it was.
    expect(storage.get('portico.language')).toBe('zh');
  });

  it('without ui_locales: the choice the person made wins over the browser; with none, the browser', async () => {
    vi.stubGlobal('navigator', { languages: ['en-GB', 'zh-CN'], language: 'en-GB' });
    const passport = fakePassport({ [openPaths.authInfoV2]: () => auth(info(ada)) });
    const chosen = createLanguageStore({
      storage: { getItem: () => 'zh', setItem: () => {} },
      document: null,
    });
    renderAuthApp(passport.client, '/authorization?interaction=i-10', {
      authorization: true,
      languageStore: chosen,
    });
    expect(await screen.findByText('Video Club 请求使用你的 Portico 账号', undefined, SLOW)).toBeTruthy();
    expect(chosen.get()).toBe('zh');
    cleanup();

    const fresh = createLanguageStore({ storage: null, document: null });
    renderAuthApp(passport.client, '/authorization?interaction=i-11', {
      authorization: true,
      languageStore: fresh,
    });
    await waitFor(() => expect(fresh.get()).toBe('en'), SLOW);
  });

  it('says the request is invalid without an interaction', async () => {
    renderAuthApp(fakePassport({}).client, '/authorization', { authorization: true });
    expect(await screen.findByText('授权请求无效或已过期，请回到应用重新发起。')).toBeTruthy();
  });
});

describe('the authorised apps (account centre)', () => {
  it('lists the apps and revokes one', async () => {
    let apps = [
      {
        client_key: 'c1',
        app_name: 'Video Club',
        app_icon: '',
        scopes: ['user_info', 'video.list'],
        scope_info: [
          { name: 'user_info', zh: '获取你的昵称和头像', en: 'Read your name and picture' },
          { name: 'video.list', zh: '读取你的视频列表', en: 'Read your video list' },
        ],
        authorized_at: 1,
      },
    ];
    const passport = fakePassport({
      [openPaths.authorizedApps]: () => auth({ apps }),
      [openPaths.updateAuthorizeInfo]: () => {
        apps = [];
        return auth({ apps });
      },
    });
    renderInProvider(passport.client, <AuthorizedApps />, 'en');
    const user = userEvent.setup();
    // Each scope in words, not its key.
    expect(await screen.findByText(/Read your name and picture; Read your video list/)).toBeTruthy();
    expect(screen.queryByText(/video\.list/)).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Revoke: Video Club' }));
    // Confirmed first: nothing is revoked until the dialog's own button.
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke Video Club?' });
    expect(passport.to(openPaths.updateAuthorizeInfo)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('You have not authorised any app.')).toBeTruthy();
    expect(passport.to(openPaths.updateAuthorizeInfo)[0]?.body).toMatchObject({ client_key: 'c1' });
  });
});
