import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, paths, thirdPartyPaths } from '../src/protocol';
import { isSignedIn } from './support/flows';
import { type Browser, startServer, type TestServer } from './support/server';
import { linkByMobile } from './support/third-party';
import { startWeChatPeer, type WeChatPeer } from './support/wechat-peer';

/**
 * WeChat's website sign-in ("QR connect", docs/third-party-sign-in.md) against a WeChat-shaped peer on
 * loopback that speaks its protocol: the qrconnect page, where the person scans the QR code with the
 * WeChat app; sns/oauth2/access_token with the app's appid and secret; sns/userinfo; errcode refusals.
 */

const ORIGIN = 'http://localhost:3000';
const APP_ID = 'wx0123456789abcdef';
const APP_SECRET = 'wechat-secret-0123456789abcdef';
let wechat: WeChatPeer;
let server: TestServer;

beforeAll(async () => {
  wechat = await startWeChatPeer({ appId: APP_ID, appSecret: APP_SECRET });
  server = await startServer(
    {
      oauth: {
        wechat: { appId: APP_ID, appSecret: APP_SECRET, baseUrl: wechat.baseUrl, apiUrl: wechat.apiUrl },
        devOrigins: [],
      },
    },
    { limits: { sendCooldownMs: 5 } },
  );
});
afterAll(async () => {
  await server?.close();
  await wechat?.close();
});

/** A person with a WeChat account; with `unionid` when the app belongs to an Open Platform account. */
function person(options: { unionid?: boolean } = {}) {
  const openid = `o${randomBytes(12).toString('base64url')}`;
  wechat.users.set(openid, {
    openid,
    nickname: '小明',
    headimgurl: 'https://thirdwx.qlogo.cn/mmopen/a.png',
    ...(options.unionid ? { unionid: `u${randomBytes(12).toString('base64url')}` } : {}),
  });
  return openid;
}

/** Starts at the redirect, scans the QR code as `openid`: answers the callback page's parameters. */
async function scanned(browser: Browser, openid: string) {
  const start = await browser.get(`${paths.passport.authLogin}?platform_app_id=wechat&next=/`);
  expect(start.status, JSON.stringify(start.body)).toBe(302);
  const callback = await wechat.scan(String(start.headers.location), openid);
  expect(callback.pathname).toBe('/wechat-oauth-callback');
  return {
    platform_app_id: 'wechat',
    code: callback.searchParams.get('code') ?? '',
    state: callback.searchParams.get('state') ?? '',
  };
}

/** An account linked to the WeChat account by an SMS code (mobile/bind_login). */
async function linked(openid: string) {
  const browser = server.browser();
  return (await linkByMobile(server, browser, await scanned(browser, openid))).userId;
}

describe('WeChat sign-in (QR connect)', () => {
  it('redirects to the qrconnect page with the appid, snsapi_login, the callback and a state, never the secret', async () => {
    const browser = server.browser();
    const start = await browser.get(`${paths.passport.authLogin}?platform_app_id=wechat&next=/`);
    expect(start.status).toBe(302);
    const target = new URL(String(start.headers.location));
    expect(`${target.origin}${target.pathname}`).toBe(`${wechat.baseUrl}/connect/qrconnect`);
    expect(Object.fromEntries(target.searchParams)).toMatchObject({
      appid: APP_ID,
      redirect_uri: `${ORIGIN}/wechat-oauth-callback`,
      response_type: 'code',
      scope: 'snsapi_login',
    });
    expect(target.searchParams.get('state')).toMatch(/^[0-9a-f]{64}$/);
    expect(target.hash).toBe('#wechat_redirect');
    expect(target.href).not.toContain(APP_SECRET);
    expect((await browser.get(thirdPartyPaths.providers)).body.data.providers).toContain('wechat');
  });

  it('an unlinked WeChat account creates no account and offers its profile (no e-mail); once linked it signs in', async () => {
    const openid = person();
    const browser = server.browser();
    const answer = await browser.post(paths.web.authLoginOnly, await scanned(browser, openid));
    expect(answer.body.data.error_code).toBe(ErrorCode.oauthNotLinked);
    const key = encodeURIComponent(answer.body.data.profile_key);
    const profile = await browser.get(`${paths.profile.getOauthProfile}?profile_key=${key}`);
    expect(profile.body.data).toMatchObject({
      platform: 'wechat',
      name: '小明',
      email: '',
      email_verified: false,
    });
    expect(await isSignedIn(browser)).toBe(false);

    const second = person();
    const userId = await linked(second);
    const [link] = await server.app.db
      .selectFrom('linked_identities')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    expect(link).toMatchObject({ provider: 'wechat', subject: second, email: null });
    const again = server.browser();
    const signIn = await again.post(paths.web.authLoginOnly, await scanned(again, second));
    expect(signIn.body.message, JSON.stringify(signIn.body)).toBe('success');
    expect(signIn.body.data.user_id).toBe(userId);
  });

  it('knows the person by unionid when WeChat tells one (one id across the company’s apps)', async () => {
    const openid = person({ unionid: true });
    const userId = await linked(openid);
    const [link] = await server.app.db
      .selectFrom('linked_identities')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    expect(link?.subject).toBe(wechat.users.get(openid)?.unionid);
  });

  it('refuses a replayed callback, and a code WeChat refuses (errcode), without signing in', async () => {
    const openid = person();
    await linked(openid);
    const browser = server.browser();
    const first = await scanned(browser, openid);
    expect((await browser.post(paths.web.authLoginOnly, first)).body.message).toBe('success');
    // The same state again: this browser's flow was taken once.
    const replay = await browser.post(paths.web.authLoginOnly, first);
    expect(replay.body.data.error_code).toBe(ErrorCode.oauthStateMismatch);
    // A fresh flow with the used code: WeChat answers errcode 40029.
    const other = server.browser();
    const fresh = await other.get(`${paths.passport.authLogin}?platform_app_id=wechat&next=/`);
    const state = new URL(String(fresh.headers.location)).searchParams.get('state') ?? '';
    const refusedBefore = wechat.refused();
    const reused = await other.post(paths.web.authLoginOnly, {
      platform_app_id: 'wechat',
      code: first.code,
      state,
    });
    expect(reused.body.data.error_code).toBe(ErrorCode.oauthExchangeFailed);
    expect(wechat.refused()).toBe(refusedBefore + 1);
    expect(await isSignedIn(other)).toBe(false);
  });

  it('refuses the sign-in when the app’s secret is wrong (WeChat answers errcode 40125)', async () => {
    const wrong = await startServer({
      oauth: {
        wechat: {
          appId: APP_ID,
          appSecret: 'not-the-secret',
          baseUrl: wechat.baseUrl,
          apiUrl: wechat.apiUrl,
        },
        devOrigins: [],
      },
    });
    try {
      const browser = wrong.browser();
      const start = await browser.get(`${paths.passport.authLogin}?platform_app_id=wechat&next=/`);
      const callback = await wechat.scan(String(start.headers.location), person());
      const answer = await browser.post(paths.web.authLoginOnly, {
        platform_app_id: 'wechat',
        code: callback.searchParams.get('code') ?? '',
        state: callback.searchParams.get('state') ?? '',
      });
      expect(answer.body.data.error_code).toBe(ErrorCode.oauthExchangeFailed);
    } finally {
      await wrong.close();
    }
  });
});
