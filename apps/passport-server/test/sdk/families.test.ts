import {
  accountInfo,
  accountInfoV2,
  checkLogin,
  legacyAccountLogin,
  legacyLogout,
  legacySendActivationCode,
  mobileCheckCode,
  mobilePasswordLogin,
  mobileSendCode,
  mobileSmsLogin,
  passwordLogin,
  quickLogin,
  setPassword,
} from '@portico/account-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, paths } from '../../src/protocol';
import { FAMILY_ROUTES } from '../../src/routes/families';
import { GOOD_PASSWORD, passCooldown } from '../support/flows';
import { rejectsWith, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { freshMobile } from '../support/server';

/**
 * The legacy root paths, the mobile family, account info v2 and the app API, through the real SDK:
 * the same flows as the web family, so the same rules (and the same counters) hold on every path.
 */

interface Account {
  user_id: string;
  new_user?: boolean;
}

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({}, { limits: { sendCooldownMs: 5, passwordFailuresPerAccount: 4 } });
});
afterAll(async () => server?.close());

/** An account with a password, signed out; answers its number and id. */
async function accountWithPassword() {
  const client = server.sdkBrowser().client();
  const mobile = freshMobile();
  await legacySendActivationCode(client, { mobile, type: CodeType.mobileLogin });
  const { user_id } = await quickLogin<Account>(client, { mobile, code: await server.codeFor(mobile) });
  await setPassword(client, { password: GOOD_PASSWORD });
  await legacyLogout(client, { not_redirect: 1 });
  return { mobile, userId: user_id };
}

describe('the legacy root paths through the SDK', () => {
  it('sends an activation code and signs in with quick_login; check_login and logout follow the session', async () => {
    const browser = server.sdkBrowser();
    const client = browser.client();
    const mobile = freshMobile();
    await legacySendActivationCode(client, { mobile, type: CodeType.mobileLogin });
    const account = await quickLogin<Account>(client, { mobile, code: await server.codeFor(mobile) });
    expect(account.new_user).toBe(true);
    expect(await checkLogin(client)).toEqual({ is_login: true, user_id: account.user_id });
    expect(browser.exchanges.map((e) => e.path)).toContain(paths.legacy.checkLogin);

    expect(await legacyLogout(client)).toEqual({ next: '/' });
    expect(await checkLogin(client)).toEqual({ is_login: false });
    await rejectsWith(accountInfo(client), 'notLoggedIn');
  });

  it('signs in with account_login, and a wrong code on quick_login is CODE_WRONG', async () => {
    const { mobile, userId } = await accountWithPassword();
    const client = server.sdkBrowser().client();
    expect(
      (await legacyAccountLogin<Account>(client, { account: mobile, password: GOOD_PASSWORD })).user_id,
    ).toBe(userId);
    await passCooldown();
    await legacySendActivationCode(client, { mobile, type: CodeType.mobileLogin });
    const code = await server.codeFor(mobile);
    await rejectsWith(
      quickLogin(client, { mobile, code: code === '000000' ? '111111' : '000000' }),
      'codeWrong',
    );
  });

  it('logs out by navigation: the GET redirects to next, which must be same-origin', async () => {
    const browser = server.sdkBrowser();
    const client = browser.client();
    const mobile = freshMobile();
    await legacySendActivationCode(client, { mobile, type: CodeType.mobileLogin });
    await quickLogin(client, { mobile, code: await server.codeFor(mobile) });
    const cookie = [...browser.cookies].map(([k, c]) => `${k}=${c.value}`).join('; ');
    const answer = await fetch(`${server.baseUrl}${paths.legacy.logout}?next=https://evil.example/`, {
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
      redirect: 'manual',
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/');
    await rejectsWith(accountInfo(client), 'notLoggedIn');
  });
});

describe('the mobile family through the SDK', () => {
  it('sends a code, signs in by SMS and by password, and checks a code for a ticket', async () => {
    const { mobile, userId } = await accountWithPassword();
    const client = server.sdkBrowser().client();
    await passCooldown();
    await mobileSendCode(client, { mobile, type: CodeType.mobileLogin });
    expect(
      (await mobileSmsLogin<Account>(client, { mobile, code: await server.codeFor(mobile) })).user_id,
    ).toBe(userId);
    const other = server.sdkBrowser().client();
    expect((await mobilePasswordLogin<Account>(other, { mobile, password: GOOD_PASSWORD })).user_id).toBe(
      userId,
    );

    await passCooldown();
    await mobileSendCode(other, { mobile, type: CodeType.resetPassword });
    const checked = await mobileCheckCode<{ verify_ticket: string }>(other, {
      mobile,
      type: CodeType.resetPassword,
      code: await server.codeFor(mobile),
    });
    expect(checked.verify_ticket).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });
});

describe('account info v2 through the SDK', () => {
  it('answers the signed-in account, and NOT_LOGGED_IN without a session', async () => {
    const client = server.sdkBrowser().client();
    await rejectsWith(accountInfoV2(client), 'notLoggedIn');
    const mobile = freshMobile();
    await mobileSendCode(client, { mobile, type: CodeType.mobileLogin });
    const { user_id } = await mobileSmsLogin<Account>(client, { mobile, code: await server.codeFor(mobile) });
    expect(await accountInfoV2(client)).toEqual(await accountInfo(client));
    expect((await accountInfoV2<Account>(client)).user_id).toBe(user_id);
  });
});

describe('the app API through the SDK', () => {
  it('signs in with /Login, answers /CheckLogin and /GetUserInfo, mints a token, and logs out', async () => {
    const { mobile, userId } = await accountWithPassword();
    const client = server.sdkBrowser().client('app');
    const call = <T>(path: string, method: 'GET' | 'POST', data?: Record<string, unknown>) =>
      client.request<T>({ path, method, ...(data ? { data } : {}) });

    expect(await call(paths.app.CheckLogin, 'GET')).toEqual({ is_login: false });
    const account = await call<Account>(paths.app.Login, 'POST', { mobile, password: GOOD_PASSWORD });
    expect(account.user_id).toBe(userId);
    expect(await call(paths.app.CheckLogin, 'GET')).toEqual({ is_login: true, user_id: userId });
    expect((await call<Account>(paths.app.GetUserInfo, 'GET')).user_id).toBe(userId);
    const token = await call<{ token: string; token_type: string }>(paths.app.GetUserToken, 'POST');
    expect(token.token_type).toBe('Bearer');
    expect(token.token.split('.')).toHaveLength(3);

    await call(paths.app.Logout, 'POST');
    expect(await call(paths.app.CheckLogin, 'GET')).toEqual({ is_login: false });
    await rejectsWith(call(paths.app.GetUserInfo, 'GET'), 'notLoggedIn');
  });

  it('shares one failure counter across /Login, user/login, account_login and mobile/login', async () => {
    const { mobile } = await accountWithPassword();
    const wrong = { mobile, account: mobile, password: 'certainly not it' };
    // One browser (one address): the lock falls on the address that failed (issue 9 item 2).
    const guesser = server.sdkBrowser();
    const web = guesser.client();
    const app = guesser.client('app');
    await rejectsWith(app.request({ path: paths.app.Login, data: wrong }), 'wrongCredentials');
    await rejectsWith(passwordLogin(web, wrong), 'wrongCredentials');
    await rejectsWith(legacyAccountLogin(web, wrong), 'wrongCredentials');
    await rejectsWith(mobilePasswordLogin(web, wrong), 'wrongCredentials');
    // Four failures (the test's limit) lock it out on every path, even for the right password.
    await rejectsWith(mobilePasswordLogin(web, { mobile, password: GOOD_PASSWORD }), 'temporarilyLocked');
    await rejectsWith(
      app.request({ path: paths.app.Login, data: { mobile, password: GOOD_PASSWORD } }),
      'temporarilyLocked',
    );
  });
});

describe('the family table', () => {
  it('serves every row in its envelope (NOT_LOGGED_IN or a validation failure, never a 404)', async () => {
    for (const { path, method, envelope } of FAMILY_ROUTES) {
      const answer = await fetch(`${server.baseUrl}${path}`, {
        method,
        redirect: 'manual',
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      // GET logout is a navigation; the wap login's two steps are browser redirects (flows/wap-login);
      // so is the open-auth resume (to the authorization page when this browser has no request to resume).
      if (
        method === 'GET' &&
        (path.endsWith('logout/') ||
          /^\/passport\/auth\/(wap_login|login_success)\/$/.test(path) ||
          path === paths.open.connectResume)
      ) {
        expect(answer.status, path).toBe(302);
        continue;
      }
      const body = (await answer.json()) as Record<string, unknown>;
      expect(answer.status, path).not.toBe(404);
      if (envelope === 'sso') expect(typeof body.error_code, path).toBe('number');
      else if (envelope === 'auth') expect(typeof body.status_code, path).toBe('number');
      else expect(body.message, path).toMatch(/^(success|error)$/);
    }
  });
});
