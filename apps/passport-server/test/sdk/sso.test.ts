import {
  accountInfo,
  checkLogin,
  emailCodeLogin,
  logout,
  passwordLogin,
  sendEmailCode,
  sendMobileCode,
  setPassword,
  smsLogin,
} from '@portico/account-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/lib/crypto';
import { CodeType, EmailCodeType, paths } from '../../src/protocol';
import { GOOD_PASSWORD } from '../support/flows';
import { rejectsWith, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { freshEmail, freshMobile } from '../support/server';

/**
 * The sso flavour end to end: an sso client routes the calls that have an sso variant to
 * `/passport/sso/…`, reads the sso envelope (`error_code: 0` is success) and sends the e-mail code
 * purpose as `ect_type`. The flows are the web family's, so their rules hold here too.
 */

interface Account {
  user_id: string;
  new_user?: boolean;
}

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer();
});
afterAll(async () => server?.close());

const ssoBrowser = () => {
  const browser = server.sdkBrowser();
  return { browser, client: browser.client('sso') };
};

describe('the sso flavour through the SDK', () => {
  it('sends an SMS code and signs in on the sso paths, in the sso envelope', async () => {
    const { browser, client } = ssoBrowser();
    const mobile = freshMobile();
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
    const account = await smsLogin<Account>(client, { mobile, code: await server.codeFor(mobile) });
    expect(account.new_user).toBe(true);
    expect((await accountInfo<Account>(client)).user_id).toBe(account.user_id);
    expect(await checkLogin(client)).toEqual({ is_login: true, user_id: account.user_id });
    const used = new Set(browser.exchanges.map((e) => e.path));
    for (const path of [paths.sso.sendCode, paths.sso.smsLogin, paths.sso.accountInfo, paths.sso.checkLogin])
      expect(used).toContain(path);
    expect([...used].some((path) => path.startsWith('/passport/web/'))).toBe(false);
  });

  it('answers in the sso envelope on the wire', async () => {
    const { browser, client } = ssoBrowser();
    await checkLogin(client);
    const csrf = browser.cookies.get('passport_csrf_token')?.value ?? '';
    const cookie = [...browser.cookies].map(([k, c]) => `${k}=${c.value}`).join('; ');
    const answer = await fetch(`${server.baseUrl}${paths.sso.accountInfo}`, { headers: { cookie } });
    expect(await answer.json()).toMatchObject({ error_code: 1101, description: expect.any(String) });
    const sent = await fetch(`${server.baseUrl}${paths.sso.sendCode}`, {
      method: 'POST',
      headers: {
        cookie,
        'x-tt-passport-csrf-token': csrf,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': browser.address,
      },
      body: new URLSearchParams({ mobile: freshMobile(), type: String(CodeType.mobileLogin) }),
    });
    expect(await sent.json()).toMatchObject({ error_code: 0, data: { expires_in: 600 } });
  });

  it('sends the e-mail code purpose as ect_type and signs in with it', async () => {
    const { browser, client } = ssoBrowser();
    const email = freshEmail();
    await sendEmailCode(client, { email, type: EmailCodeType.ssoCodeLogin });
    expect(browser.exchanges.at(-1)?.path).toBe(paths.sso.emailSendCode);
    const account = await emailCodeLogin<Account>(client, { email, code: await server.codeFor(email) });
    expect(account.new_user).toBe(true);
  });

  it('signs in with a password, and answers a wrong password and an unknown user alike', async () => {
    const { client } = ssoBrowser();
    const mobile = freshMobile();
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
    const { user_id } = await smsLogin<Account>(client, { mobile, code: await server.codeFor(mobile) });
    await setPassword(client, { password: GOOD_PASSWORD });
    await logout(client, { not_redirect: 1 });

    const fresh = ssoBrowser().client;
    expect((await passwordLogin<Account>(fresh, { mobile, password: GOOD_PASSWORD })).user_id).toBe(user_id);
    const wrong = await rejectsWith(
      passwordLogin(ssoBrowser().client, { mobile, password: 'a wrong password here' }),
      'wrongCredentials',
    );
    const unknown = await rejectsWith(
      passwordLogin(ssoBrowser().client, { mobile: freshMobile(), password: 'a wrong password here' }),
      'wrongCredentials',
    );
    expect(unknown.description).toBe(wrong.description);
  });

  it('rejects a wrong code with the catalogue code and a log id, and five kill the code', async () => {
    const { client } = ssoBrowser();
    const mobile = freshMobile();
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
    const code = await server.codeFor(mobile);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) await rejectsWith(smsLogin(client, { mobile, code: wrong }), 'codeWrong');
    await rejectsWith(smsLogin(client, { mobile, code }), 'codeTooManyAttempts');
    await rejectsWith(sendMobileCode(client, { mobile, type: CodeType.mobileLogin }), 'codeCooldown');
  });

  it('logs out on the sso path: the session dies', async () => {
    const { browser, client } = ssoBrowser();
    const mobile = freshMobile();
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
    await smsLogin(client, { mobile, code: await server.codeFor(mobile) });
    const before = browser.session;
    expect(await logout(client)).toEqual({ next: '/' });
    expect(browser.exchanges.at(-1)?.path).toBe(paths.sso.logout);
    expect(browser.session).toBeUndefined();
    await rejectsWith(accountInfo(client), 'notLoggedIn');
    expect(
      await server.app.db
        .selectFrom('sessions')
        .select('user_id')
        .where('token_hash', '=', sha256(before ?? ''))
        .execute(),
    ).toEqual([]);
  });

  it('refuses an sso state change whose CSRF header is stripped', async () => {
    const { browser, client } = ssoBrowser();
    await checkLogin(client);
    browser.stripCsrf = true;
    const error = await rejectsWith(
      sendMobileCode(client, { mobile: freshMobile(), type: CodeType.mobileLogin }),
      'csrfCookieUnreadable',
    );
    expect(error.status).toBe(403);
  });
});
