import {
  accountInfo,
  changePassword,
  checkEmailCode,
  checkLogin,
  checkMobileCode,
  emailRegisterVerifyLogin,
  emailResetAndLogin,
  hasSetPassword,
  legacyResetPassword,
  mobileResetPassword,
  mobileSendCode,
  passwordLogin,
  registerByEmail,
  registerByMobile,
  registerOnlyUser,
  sendEmailCode,
  sendMobileCode,
  smsLogin,
} from '@portico/account-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, type CodeTypeValue, EmailCodeType, paths } from '../../src/protocol';
import { GOOD_PASSWORD, OTHER_GOOD_PASSWORD, passCooldown } from '../support/flows';
import { rejectsWith, type SdkBrowser, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { freshEmail, freshMobile } from '../support/server';

/**
 * The password and registration flows the other SDK suites leave out, end to end through the real SDK:
 * change by code and by ticket, e-mail reset-and-login, register-verify-login, the only-user
 * registration, and the legacy and mobile reset paths, each with a negative path.
 */

interface Account {
  user_id: string;
  new_user?: boolean;
  has_password?: boolean;
}
interface Ticket {
  ticket: string;
  verify_ticket: string;
}

/** Among the most common passwords, at least 8 characters: refused as PASSWORD_TOO_COMMON. */
const COMMON_PASSWORD = 'password123';

let server: SdkServer;
beforeAll(async () => {
  // A few-millisecond cooldown: the flows send several codes to one target (register, then reset).
  server = await startSdkServer({}, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

async function mobileCode(browser: SdkBrowser, mobile: string, type: CodeTypeValue) {
  await passCooldown();
  await sendMobileCode(browser.client(), { mobile, type });
  return server.codeFor(mobile);
}

async function emailCode(browser: SdkBrowser, email: string, type: CodeTypeValue) {
  await passCooldown();
  await sendEmailCode(browser.client(), { email, type });
  return server.codeFor(email);
}

/** A signed-in browser on a fresh mobile account with a password. */
async function signedInMobileAccount() {
  const browser = server.sdkBrowser();
  const mobile = freshMobile();
  const code = await mobileCode(browser, mobile, CodeType.register);
  const { verify_ticket } = await checkMobileCode<Ticket>(browser.client(), {
    mobile,
    type: CodeType.register,
    code,
  });
  const account = await registerByMobile<Account>(browser.client(), {
    mobile,
    verify_ticket,
    password: GOOD_PASSWORD,
  });
  return { browser, mobile, userId: account.user_id };
}

/** A fresh e-mail account with a password, signed in on the browser answered. */
async function signedInEmailAccount() {
  const browser = server.sdkBrowser();
  const email = freshEmail();
  const code = await emailCode(browser, email, EmailCodeType.register);
  const { verify_ticket } = await checkEmailCode<Ticket>(browser.client(), {
    email,
    type: EmailCodeType.register,
    code,
  });
  const account = await registerByEmail<Account>(browser.client(), {
    email,
    verify_ticket,
    password: GOOD_PASSWORD,
  });
  return { browser, email, userId: account.user_id };
}

/** Another browser signed in to the same mobile account by password. */
async function secondSession(identifier: { mobile: string } | { email: string }, password = GOOD_PASSWORD) {
  const browser = server.sdkBrowser();
  await passwordLogin(browser.client(), { ...identifier, password });
  return browser;
}

describe('changing the password while signed in, through the SDK', () => {
  it('changes it with a code to the own mobile: other sessions die, this one is renewed', async () => {
    const { browser, mobile, userId } = await signedInMobileAccount();
    const other = await secondSession({ mobile });
    const before = browser.session;
    const code = await mobileCode(browser, mobile, CodeType.changePassword);

    expect(await changePassword(browser.client(), { code, password: OTHER_GOOD_PASSWORD })).toEqual({
      user_id: userId,
      signed_in: true,
    });
    expect(browser.session).toBeDefined();
    expect(browser.session).not.toBe(before);
    expect((await accountInfo<Account>(browser.client())).user_id).toBe(userId);
    await rejectsWith(accountInfo(other.client()), 'notLoggedIn');
    await rejectsWith(
      passwordLogin(server.sdkBrowser().client(), { mobile, password: GOOD_PASSWORD }),
      'wrongCredentials',
    );
    await secondSession({ mobile }, OTHER_GOOD_PASSWORD);
  });

  it('refuses a code of another purpose (a login code never changes a password)', async () => {
    const { browser, mobile } = await signedInMobileAccount();
    const code = await mobileCode(browser, mobile, CodeType.mobileLogin);
    await rejectsWith(
      changePassword(browser.client(), { code, type: CodeType.mobileLogin, password: OTHER_GOOD_PASSWORD }),
      'codeTypeInvalid',
    );
    await secondSession({ mobile });
  });

  it('changes it with the ticket of a change code; the spent ticket is refused after', async () => {
    const { browser, mobile, userId } = await signedInMobileAccount();
    const other = await secondSession({ mobile });
    const code = await mobileCode(browser, mobile, CodeType.changePassword);
    const { ticket } = await checkMobileCode<Ticket>(browser.client(), {
      mobile,
      type: CodeType.changePassword,
      code,
    });

    expect(await changePassword(browser.client(), { ticket, password: OTHER_GOOD_PASSWORD })).toEqual({
      user_id: userId,
      signed_in: true,
    });
    await rejectsWith(accountInfo(other.client()), 'notLoggedIn');
    await secondSession({ mobile }, OTHER_GOOD_PASSWORD);
    await rejectsWith(changePassword(browser.client(), { ticket, password: GOOD_PASSWORD }), 'ticketInvalid');
    await secondSession({ mobile }, OTHER_GOOD_PASSWORD);
  });
});

describe('e-mail reset and sign in, through the SDK', () => {
  it('resets with an e-mail code and signs this browser in; every other session dies', async () => {
    const { browser: first, email, userId } = await signedInEmailAccount();
    const browser = server.sdkBrowser();
    const code = await emailCode(browser, email, CodeType.resetPassword);

    const account = await emailResetAndLogin<Account>(browser.client(), {
      email,
      code,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(account.user_id).toBe(userId);
    expect(await checkLogin(browser.client())).toEqual({ is_login: true, user_id: userId });
    await rejectsWith(accountInfo(first.client()), 'notLoggedIn');
    await rejectsWith(
      passwordLogin(server.sdkBrowser().client(), { email, password: GOOD_PASSWORD }),
      'wrongCredentials',
    );
    await secondSession({ email }, OTHER_GOOD_PASSWORD);
  });

  it('refuses a common password with PASSWORD_TOO_COMMON and leaves the code unspent', async () => {
    const { email } = await signedInEmailAccount();
    const browser = server.sdkBrowser();
    const code = await emailCode(browser, email, CodeType.resetPassword);
    await rejectsWith(
      emailResetAndLogin(browser.client(), { email, code, password: COMMON_PASSWORD }),
      'passwordTooCommon',
    );
    await rejectsWith(accountInfo(browser.client()), 'notLoggedIn');
    // The refused password cost no verification: the same code still resets.
    await emailResetAndLogin(browser.client(), { email, code, password: OTHER_GOOD_PASSWORD });
    await accountInfo(browser.client());
  });
});

describe('register, verify and sign in with one e-mail code, through the SDK', () => {
  it('creates the account with its password and signs in', async () => {
    const browser = server.sdkBrowser();
    const email = freshEmail();
    const code = await emailCode(browser, email, EmailCodeType.register);
    const account = await emailRegisterVerifyLogin<Account>(browser.client(), {
      email,
      code,
      password: GOOD_PASSWORD,
    });
    expect(account.new_user).toBe(true);
    expect(await hasSetPassword(browser.client())).toEqual({ has_set: true });
    expect(
      (await passwordLogin<Account>(server.sdkBrowser().client(), { email, password: GOOD_PASSWORD }))
        .user_id,
    ).toBe(account.user_id);
  });

  it('signs an existing account in and leaves its password unchanged; a spent code is refused', async () => {
    const { email, userId } = await signedInEmailAccount();
    const browser = server.sdkBrowser();
    const code = await emailCode(browser, email, EmailCodeType.register);
    const account = await emailRegisterVerifyLogin<Account>(browser.client(), {
      email,
      code,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(account.user_id).toBe(userId);
    expect(account.new_user).toBe(false);
    await secondSession({ email }, GOOD_PASSWORD);
    await rejectsWith(
      passwordLogin(server.sdkBrowser().client(), { email, password: OTHER_GOOD_PASSWORD }),
      'wrongCredentials',
    );
    await rejectsWith(
      emailRegisterVerifyLogin(server.sdkBrowser().client(), { email, code, password: OTHER_GOOD_PASSWORD }),
      'codeExpired',
    );
  });
});

describe('the only-user registration, through the SDK', () => {
  it('creates the account without a session; the browser keeps the session it had', async () => {
    const { browser, userId } = await signedInMobileAccount();
    const before = browser.session;
    const mobile = freshMobile();
    const code = await mobileCode(browser, mobile, CodeType.register);
    const { verify_ticket } = await checkMobileCode<Ticket>(browser.client(), {
      mobile,
      type: CodeType.register,
      code,
    });

    const created = await registerOnlyUser<{ user_id: string; new_user: boolean; signed_in: boolean }>(
      browser.client(),
      { mobile, verify_ticket, password: GOOD_PASSWORD },
    );
    expect(created).toMatchObject({ new_user: true, signed_in: false });
    expect(created.user_id).not.toBe(userId);
    expect(browser.session).toBe(before);
    expect(await checkLogin(browser.client())).toEqual({ is_login: true, user_id: userId });
    expect(
      (await passwordLogin<Account>(server.sdkBrowser().client(), { mobile, password: GOOD_PASSWORD }))
        .user_id,
    ).toBe(created.user_id);
  });

  it('sets no session in a signed-out browser, and the spent ticket is refused', async () => {
    const browser = server.sdkBrowser();
    const email = freshEmail();
    const code = await emailCode(browser, email, EmailCodeType.register);
    const { verify_ticket } = await checkEmailCode<Ticket>(browser.client(), {
      email,
      type: EmailCodeType.register,
      code,
    });
    await registerOnlyUser(browser.client(), { email, verify_ticket, password: GOOD_PASSWORD });
    expect(browser.session).toBeUndefined();
    expect(await checkLogin(browser.client())).toEqual({ is_login: false });
    await rejectsWith(
      registerOnlyUser(browser.client(), { email, verify_ticket, password: GOOD_PASSWORD }),
      'ticketInvalid',
    );
  });
});

describe('the legacy and mobile reset paths, through the SDK', () => {
  it('resets on /reset_password/: every session dies, nobody is signed in, the code is spent', async () => {
    const { browser: first, mobile, userId } = await signedInMobileAccount();
    const other = await secondSession({ mobile });
    const browser = server.sdkBrowser();
    const code = await mobileCode(browser, mobile, CodeType.resetPassword);

    expect(
      await legacyResetPassword(browser.client(), { mobile, code, password: OTHER_GOOD_PASSWORD }),
    ).toEqual({ user_id: userId, signed_in: false });
    expect(browser.exchanges.map((e) => e.path)).toContain(paths.legacy.resetPassword);
    await rejectsWith(accountInfo(first.client()), 'notLoggedIn');
    await rejectsWith(accountInfo(other.client()), 'notLoggedIn');
    await rejectsWith(accountInfo(browser.client()), 'notLoggedIn');
    await secondSession({ mobile }, OTHER_GOOD_PASSWORD);
    await rejectsWith(
      legacyResetPassword(browser.client(), { mobile, code, password: GOOD_PASSWORD }),
      'codeExpired',
    );
  });

  it('refuses a common password on /reset_password/ with PASSWORD_TOO_COMMON', async () => {
    const { mobile } = await signedInMobileAccount();
    const browser = server.sdkBrowser();
    const code = await mobileCode(browser, mobile, CodeType.resetPassword);
    await rejectsWith(
      legacyResetPassword(browser.client(), { mobile, code, password: COMMON_PASSWORD }),
      'passwordTooCommon',
    );
    await secondSession({ mobile });
  });

  it('resets on /passport/mobile/reset_password/ by mobile and by e-mail', async () => {
    const { browser: first, mobile, userId } = await signedInMobileAccount();
    const browser = server.sdkBrowser();
    await passCooldown();
    await mobileSendCode(browser.client(), { mobile, type: CodeType.resetPasswordAlt });
    const code = await server.codeFor(mobile);
    expect(
      await mobileResetPassword(browser.client(), {
        mobile,
        code,
        type: CodeType.resetPasswordAlt,
        password: OTHER_GOOD_PASSWORD,
      }),
    ).toEqual({ user_id: userId, signed_in: false });
    expect(browser.exchanges.map((e) => e.path)).toContain(paths.mobile.resetPassword);
    await rejectsWith(accountInfo(first.client()), 'notLoggedIn');
    await secondSession({ mobile }, OTHER_GOOD_PASSWORD);

    const { email, userId: emailUser } = await signedInEmailAccount();
    const emailed = await emailCode(browser, email, CodeType.resetPassword);
    expect(
      await mobileResetPassword(browser.client(), { email, code: emailed, password: OTHER_GOOD_PASSWORD }),
    ).toEqual({ user_id: emailUser, signed_in: false });
    await secondSession({ email }, OTHER_GOOD_PASSWORD);
  });

  it('refuses a login code on /passport/mobile/reset_password/ (CODE_TYPE_INVALID) and a request without an identifier', async () => {
    const { mobile } = await signedInMobileAccount();
    const browser = server.sdkBrowser();
    const code = await mobileCode(browser, mobile, CodeType.mobileLogin);
    await rejectsWith(
      mobileResetPassword(browser.client(), {
        mobile,
        code,
        type: CodeType.mobileLogin,
        password: OTHER_GOOD_PASSWORD,
      }),
      'codeTypeInvalid',
    );
    await rejectsWith(
      mobileResetPassword(browser.client(), { code, password: OTHER_GOOD_PASSWORD }),
      'identifierRequired',
    );
    await secondSession({ mobile });
    // The refused login code was not spent by the reset attempt.
    await smsLogin(browser.client(), { mobile, code });
  });
});
