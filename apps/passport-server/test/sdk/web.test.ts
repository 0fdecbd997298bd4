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
  smsLoginOnly,
} from '@portico/account-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType } from '../../src/protocol';
import { GOOD_PASSWORD } from '../support/flows';
import {
  rejection,
  rejectsWith,
  type SdkBrowser,
  type SdkServer,
  startSdkServer,
} from '../support/sdk-browser';
import { freshEmail, freshMobile } from '../support/server';

/**
 * The web flavour end to end: the real server on a loopback port, the real SDK in a simulated browser,
 * codes read from the dev outbox over HTTP. SECURITY.md's negative paths for these flows included.
 */

interface Account {
  user_id: string;
  mobile: string;
  email: string;
  new_user?: boolean;
  has_password: boolean;
}

let server: SdkServer;
// The send cooldown is short so a resend can be exercised without waiting a minute.
beforeAll(async () => {
  server = await startSdkServer({}, { limits: { sendCooldownMs: 300 } });
});
afterAll(async () => server?.close());

/** A browser signed in by SMS code through the SDK; answers the number and the account. */
async function signedInBySms(browser: SdkBrowser = server.sdkBrowser(), mobile = freshMobile()) {
  const client = browser.client();
  await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
  const account = await smsLogin<Account>(client, { mobile, code: await server.codeFor(mobile) });
  return { browser, client, mobile, account };
}

/** A browser signed in with a password set through the SDK (for the password sign-in cases). */
async function accountWithPassword() {
  const { client, mobile, account } = await signedInBySms();
  await setPassword(client, { password: GOOD_PASSWORD });
  await logout(client, { not_redirect: 1 });
  return { mobile, userId: account.user_id };
}

describe('one-time codes through the SDK', () => {
  it('sends an SMS code and signs in (and up) with it', async () => {
    const browser = server.sdkBrowser();
    const client = browser.client();
    const mobile = freshMobile();
    // The first request of this browser is a POST: it has no CSRF token yet, the 403 brings one, and
    // the SDK resends once.
    const sent = await sendMobileCode<{ mobile: string; retry_time: number; expires_in: number }>(client, {
      mobile,
      type: CodeType.mobileLogin,
    });
    expect(browser.exchanges.map((e) => e.status)).toEqual([403, 200]);
    expect(sent.retry_time).toBeGreaterThanOrEqual(0);
    expect(sent.expires_in).toBe(600);
    expect(sent.mobile).not.toContain(mobile.slice(-8, -4));

    const account = await smsLogin<Account>(client, { mobile, code: await server.codeFor(mobile) });
    expect(account.new_user).toBe(true);
    expect(browser.session).toBeDefined();
    const info = await accountInfo<Account>(client);
    expect(info.user_id).toBe(account.user_id);
    expect(await checkLogin(client)).toEqual({ is_login: true, user_id: account.user_id });
  });

  it('signs in by e-mail code', async () => {
    const client = server.sdkBrowser().client();
    const email = freshEmail();
    await sendEmailCode(client, { email, type: CodeType.emailLogin });
    const account = await emailCodeLogin<Account>(client, { email, code: await server.codeFor(email) });
    expect(account.new_user).toBe(true);
    expect((await accountInfo<Account>(client)).email).toMatch(/\*/);
  });

  it('kills a code after five wrong guesses, even for the right value, and a resend keeps the count', async () => {
    const client = server.sdkBrowser().client();
    const mobile = freshMobile();
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
    const code = await server.codeFor(mobile);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) await rejectsWith(smsLogin(client, { mobile, code: wrong }), 'codeWrong');
    await rejectsWith(smsLogin(client, { mobile, code }), 'codeTooManyAttempts');
    await rejectsWith(accountInfo(client), 'notLoggedIn');
  });

  it('binds a code to its purpose: a register code never signs in, under its own type or as a login code', async () => {
    const client = server.sdkBrowser().client();
    const mobile = freshMobile();
    await sendMobileCode(client, { mobile, type: CodeType.register });
    const code = await server.codeFor(mobile);
    // Sent for registration (1): sms_login refuses the purpose, and as a login code (24) none exists.
    await rejectsWith(smsLogin(client, { mobile, code, type: CodeType.register }), 'codeTypeInvalid');
    await rejectsWith(smsLogin(client, { mobile, code }), 'codeExpired');
    await rejectsWith(accountInfo(client), 'notLoggedIn');
  });

  it('refuses a second send inside the cooldown, and allows it after', async () => {
    const client = server.sdkBrowser().client();
    const mobile = freshMobile();
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
    await rejectsWith(sendMobileCode(client, { mobile, type: CodeType.mobileLogin }), 'codeCooldown');
    await new Promise((resolve) => setTimeout(resolve, 350));
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
  });

  it('answers login-only for a number without an account with ACCOUNT_NOT_FOUND, after the code', async () => {
    const client = server.sdkBrowser().client();
    const mobile = freshMobile();
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
    await rejectsWith(
      smsLoginOnly(client, { mobile, code: await server.codeFor(mobile) }),
      'accountNotFound',
    );
  });
});

describe('password sign-in through the SDK', () => {
  it('signs in by mobile, e-mail, username and account', async () => {
    const { mobile, userId } = await accountWithPassword();
    const email = freshEmail();
    const username = `sdk_${userId.slice(0, 8).replace(/[^a-z0-9]/gi, '')}`.toLowerCase();
    await server.app.db.updateTable('users').set({ email, username }).where('id', '=', userId).execute();
    for (const identifier of [{ mobile }, { email }, { username }, { account: email }, { account: mobile }]) {
      const client = server.sdkBrowser().client();
      const account = await passwordLogin<Account>(client, { ...identifier, password: GOOD_PASSWORD });
      expect(account.user_id, JSON.stringify(identifier)).toBe(userId);
      expect((await accountInfo<Account>(client)).has_password).toBe(true);
    }
  });

  it('answers a wrong password and an unknown account with the same error', async () => {
    const { mobile } = await accountWithPassword();
    const client = server.sdkBrowser().client();
    const wrong = await rejectsWith(
      passwordLogin(client, { mobile, password: 'not the password at all' }),
      'wrongCredentials',
    );
    const unknown = await rejectsWith(
      passwordLogin(client, { mobile: freshMobile(), password: 'not the password at all' }),
      'wrongCredentials',
    );
    expect({ ...unknown, log_id: '' }).toEqual({ ...wrong, log_id: '' });
    expect(unknown.description).toBe(wrong.description);
    expect(unknown.log_id).not.toBe(wrong.log_id);
  });

  it('rejects a password login without an identifier before sending anything', async () => {
    const error = await rejection(
      passwordLogin(server.sdkBrowser().client(), { password: GOOD_PASSWORD } as never),
    );
    expect({ kind: error.kind, description: error.description }).toEqual({
      kind: 'invalid',
      description: '',
    });
  });
});

describe('sessions and CSRF through the SDK', () => {
  it('rotates the session on sign-in: the old token is dead', async () => {
    const { browser, client, mobile } = await signedInBySms();
    const before = browser.session;
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 350));
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
    await smsLogin(client, { mobile, code: await server.codeFor(mobile) });
    expect(browser.session).toBeDefined();
    expect(browser.session).not.toBe(before);

    // A browser that kept the old cookie is signed out.
    const stale = server.sdkBrowser();
    for (const [name, cookie] of browser.cookies) stale.cookies.set(name, { ...cookie });
    stale.cookies.set('sessionid', { value: before ?? '', httpOnly: true });
    await rejectsWith(accountInfo(stale.client()), 'notLoggedIn');
    await accountInfo(client);
  });

  it('logs out: the session dies server side, and a copy of the cookie no longer works', async () => {
    const { browser, client } = await signedInBySms();
    const copy = server.sdkBrowser();
    for (const [name, cookie] of browser.cookies) copy.cookies.set(name, { ...cookie });
    await accountInfo(copy.client());

    expect(await logout(client)).toEqual({ next: '/' });
    expect(browser.session).toBeUndefined();
    await rejectsWith(accountInfo(client), 'notLoggedIn');
    await rejectsWith(accountInfo(copy.client()), 'notLoggedIn');
    expect(await checkLogin(client)).toEqual({ is_login: false });
  });

  it('refuses a state change whose CSRF header is stripped, with a 403 AccountError that names the cause', async () => {
    const browser = server.sdkBrowser();
    const client = browser.client();
    await checkLogin(client);
    browser.stripCsrf = true;
    const mobile = freshMobile();
    // The browser holds the cookie and the page sent no header: what a page on another host meets.
    const error = await rejectsWith(
      sendMobileCode(client, { mobile, type: CodeType.mobileLogin }),
      'csrfCookieUnreadable',
    );
    expect(error.status).toBe(403);
    browser.stripCsrf = false;
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
  });

  it('refuses a planted CSRF cookie of another session; the SDK recovers once with the token the server re-issues', async () => {
    const { browser, client } = await signedInBySms();
    const other = server.sdkBrowser();
    await checkLogin(other.client());
    const planted = other.cookies.get('passport_csrf_token');
    if (!planted) throw new Error('fixture: no CSRF cookie');
    browser.cookies.set('passport_csrf_token', planted);
    browser.exchanges.length = 0;
    await setPassword(client, { password: GOOD_PASSWORD });
    expect(browser.exchanges.map((e) => e.status)).toEqual([403, 200]);
    expect(browser.cookies.get('passport_csrf_token')?.value).not.toBe(planted.value);
  });

  it('a stripped header stays refused: the SDK resends only when the server handed out a new token', async () => {
    const { browser, client } = await signedInBySms();
    browser.stripCsrf = true;
    browser.exchanges.length = 0;
    await rejectsWith(setPassword(client, { password: GOOD_PASSWORD }), 'csrfCookieUnreadable');
    expect(browser.exchanges.map((e) => e.status)).toEqual([403]);
  });
});
