import { describe, expect, it, vi } from 'vitest';
import {
  createAccountClient,
  logoutUrl,
  navigate,
  openConnectUrl,
  openWapLogin,
  redirectToLogout,
  thirdPartyLoginUrl,
  wapLoginUrl,
} from '../src';
import { SDK_VERSION } from '../src/protocol';
import { recordingClient } from './support/recording-client';

const target = { aid: 1128, source: 'web' as const, baseUrl: 'https://passport.example.com/' };
const params = (url: string) => Object.fromEntries(new URL(url, 'https://page.example').searchParams);
const fakeWindow = () => ({ location: { assign: vi.fn(), replace: vi.fn() }, open: vi.fn() });

describe('redirect URL builders (pure)', () => {
  it('logout: account_sdk_source, aid, next (default /), passport_jssdk_version', () => {
    const url = logoutUrl(target);
    expect(url.startsWith('https://passport.example.com/passport/web/logout/?')).toBe(true);
    expect(params(url)).toEqual({
      account_sdk_source: 'web',
      aid: '1128',
      next: '/',
      passport_jssdk_version: SDK_VERSION,
    });
  });

  it('logout: adds subject_aid in organisation mode', () => {
    expect(params(logoutUrl(target, { next: '/bye', subject_aid: 9 }))).toMatchObject({
      next: '/bye',
      subject_aid: '9',
    });
  });

  it('is root-relative when there is no base URL (same origin)', () => {
    expect(logoutUrl({ aid: 1 }).startsWith('/passport/web/logout/?')).toBe(true);
  });

  it('third-party login: source, aid, next, platform_app_id, use_local_host, action, extras and subject_aid', () => {
    const url = thirdPartyLoginUrl(target, {
      platform_app_id: 42,
      use_local_host: 1,
      action: 'bind',
      subject_aid: 9,
      extra_flag: 'x',
    });
    expect(url.startsWith('https://passport.example.com/passport/auth/login/?')).toBe(true);
    expect(params(url)).toEqual({
      account_sdk_source: 'web',
      aid: '1128',
      next: '/',
      platform_app_id: '42',
      use_local_host: '1',
      action: 'bind',
      subject_aid: '9',
      extra_flag: 'x',
    });
  });

  it('wap login: next points to the login-success page carrying the service', () => {
    const url = wapLoginUrl(target, { service: 'https://app.example.com/home', platform_app_id: 3 });
    expect(url.startsWith('https://passport.example.com/passport/auth/wap_login/?')).toBe(true);
    const next = new URL(params(url).next!);
    expect(next.pathname).toBe('/passport/auth/login_success/');
    expect(next.searchParams.get('service')).toBe('https://app.example.com/home');
  });

  it('open-platform connect: client_key, scope, optionalScope, state, response_type code by default, redirect_uri', () => {
    const url = openConnectUrl(target, {
      client_key: 'ck',
      scope: 'user_info',
      optionalScope: 'mobile',
      state: 's1',
      redirect_uri: 'https://third.example/cb',
    });
    expect(url.startsWith('https://passport.example.com/passport/open/connect/?')).toBe(true);
    expect(params(url)).toEqual({
      client_key: 'ck',
      scope: 'user_info',
      optionalScope: 'mobile',
      state: 's1',
      response_type: 'code',
      redirect_uri: 'https://third.example/cb',
    });
    expect(
      params(
        openConnectUrl(target, { client_key: 'c', scope: 's', redirect_uri: 'r', response_type: 'token' }),
      ).response_type,
    ).toBe('token');
  });

  it('takes an AccountClient as the target', () => {
    const client = createAccountClient({ aid: 5, source: 'sso', baseUrl: 'https://p.example' });
    expect(params(logoutUrl(client))).toMatchObject({ aid: '5', account_sdk_source: 'sso' });
  });
});

describe('navigation (window injected)', () => {
  it('assigns, replaces or opens a new tab', () => {
    const win = fakeWindow();
    navigate('/a', { window: win });
    navigate('/b', { window: win, replace: true });
    navigate('/c', { window: win, newTab: true });
    expect(win.location.assign).toHaveBeenCalledWith('/a');
    expect(win.location.replace).toHaveBeenCalledWith('/b');
    expect(win.open).toHaveBeenCalledWith('/c', '_blank');
  });

  it('opens the wap login in a new tab, or in place with replace', () => {
    const win = fakeWindow();
    openWapLogin(target, { service: 's' }, { window: win });
    expect(win.open).toHaveBeenCalledTimes(1);
    openWapLogin(target, { service: 's' }, { window: win, replace: true });
    expect(win.location.replace).toHaveBeenCalledTimes(1);
  });

  it('logout navigates to the logout address', async () => {
    const win = fakeWindow();
    const { client, sent } = recordingClient();
    await redirectToLogout(client, { next: '/bye' }, { window: win });
    expect(win.location.assign).toHaveBeenCalledWith(logoutUrl(client, { next: '/bye' }));
    expect(sent).toHaveLength(0);
  });

  it('logout with not_redirect ends the session by a request and does not navigate', async () => {
    const win = fakeWindow();
    const r = recordingClient();
    await redirectToLogout(r.client, { next: '/bye', not_redirect: true }, { window: win });
    expect(win.location.assign).not.toHaveBeenCalled();
    expect(r.last).toMatchObject({
      method: 'GET',
      path: '/passport/web/logout/',
      data: { next: '/bye', not_redirect: 1 },
    });
  });
});
