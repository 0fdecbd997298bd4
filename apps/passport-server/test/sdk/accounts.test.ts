import {
  accountInfo,
  checkEmailCode,
  checkEmailRegistered,
  checkMobileCode,
  checkMobileRegistered,
  emailLogin,
  hasSetPassword,
  logout,
  passwordLogin,
  registerByEmail,
  registerByMobile,
  resetPassword,
  resetPasswordByTicket,
  sendEmailCode,
  sendMobileCode,
  setPassword,
  smsLogin,
  updatePassword,
} from '@portico/account-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, type CodeTypeValue, EmailCodeType } from '../../src/protocol';
import { GOOD_PASSWORD, OTHER_GOOD_PASSWORD, passCooldown } from '../support/flows';
import { rejectsWith, type SdkBrowser, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { freshEmail, freshMobile } from '../support/server';

/**
 * Registration with verify tickets, password reset by code and by ticket, update, set, has-set and
 * check registered, end to end through the real SDK in the web flavour.
 */

interface Account {
  user_id: string;
  new_user?: boolean;
  has_password: boolean;
}
interface Ticket {
  ticket: string;
  verify_ticket: string;
}

let server: SdkServer;
beforeAll(async () => {
  // A few-millisecond cooldown: the flows send several codes to one number (register, then reset).
  server = await startSdkServer({}, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

async function mobileTicket(browser: SdkBrowser, mobile: string, type: CodeTypeValue) {
  const client = browser.client();
  await passCooldown();
  await sendMobileCode(client, { mobile, type });
  return checkMobileCode<Ticket>(client, { mobile, type, code: await server.codeFor(mobile) });
}

/** An account with a password, signed out; answers its number and id. */
async function accountWithPassword() {
  const browser = server.sdkBrowser();
  const mobile = freshMobile();
  const { verify_ticket } = await mobileTicket(browser, mobile, CodeType.register);
  const account = await registerByMobile<Account>(browser.client(), {
    mobile,
    verify_ticket,
    password: GOOD_PASSWORD,
  });
  await logout(browser.client(), { not_redirect: 1 });
  return { mobile, userId: account.user_id };
}

/** An account registered by e-mail code, verify ticket and password (the browser stays signed in). */
async function registeredByEmail() {
  const client = server.sdkBrowser().client();
  const email = freshEmail();
  await sendEmailCode(client, { email, type: EmailCodeType.register });
  const { verify_ticket } = await checkEmailCode<Ticket>(client, {
    email,
    type: EmailCodeType.register,
    code: await server.codeFor(email),
  });
  const account = await registerByEmail<Account>(client, { email, verify_ticket, password: GOOD_PASSWORD });
  return { email, account };
}

describe('registration through the SDK', () => {
  it('registers by mobile with a verify ticket and signs in; the ticket is single use', async () => {
    const browser = server.sdkBrowser();
    const client = browser.client();
    const mobile = freshMobile();
    const { verify_ticket } = await mobileTicket(browser, mobile, CodeType.register);
    const account = await registerByMobile<Account>(client, {
      mobile,
      verify_ticket,
      password: GOOD_PASSWORD,
    });
    expect(account.new_user).toBe(true);
    expect((await accountInfo<Account>(client)).has_password).toBe(true);
    await rejectsWith(
      registerByMobile(server.sdkBrowser().client(), { mobile, verify_ticket }),
      'ticketInvalid',
    );
  });

  it('registers by e-mail with a verify ticket', async () => {
    const { email, account } = await registeredByEmail();
    expect(account.new_user).toBe(true);
    expect(
      (await passwordLogin<Account>(server.sdkBrowser().client(), { email, password: GOOD_PASSWORD }))
        .user_id,
    ).toBe(account.user_id);
  });

  it('signs in at email/login with the e-mail and password; a wrong password or a mobile is refused', async () => {
    const { email, account } = await registeredByEmail();
    const other = server.sdkBrowser().client();
    expect((await emailLogin(other, { email, password: GOOD_PASSWORD })).user_id).toBe(account.user_id);
    expect((await accountInfo<Account>(other)).user_id).toBe(account.user_id);
    await rejectsWith(
      emailLogin(server.sdkBrowser().client(), { email, password: OTHER_GOOD_PASSWORD }),
      'wrongCredentials',
    );
    // The route names its account by e-mail only: the account's number in its place is no account
    // (the same answer as an unknown one, so the route tells nothing about which numbers exist).
    const { mobile } = await accountWithPassword();
    await rejectsWith(
      emailLogin(server.sdkBrowser().client(), { email: mobile, password: GOOD_PASSWORD }),
      'wrongCredentials',
    );
  });

  it('refuses a ticket of another purpose (a login code ticket never registers)', async () => {
    const browser = server.sdkBrowser();
    const mobile = freshMobile();
    const { verify_ticket } = await mobileTicket(browser, mobile, CodeType.mobileLogin);
    await rejectsWith(
      registerByMobile(browser.client(), { mobile, verify_ticket, password: GOOD_PASSWORD }),
      'ticketInvalid',
    );
  });

  it('answers check registered for mobile and e-mail', async () => {
    const { mobile } = await accountWithPassword();
    const client = server.sdkBrowser().client();
    expect(await checkMobileRegistered(client, { mobile })).toEqual({ is_registered: true });
    expect(await checkMobileRegistered(client, { mobile: freshMobile() })).toEqual({ is_registered: false });
    expect(await checkEmailRegistered(client, { email: freshEmail() })).toEqual({ is_registered: false });
  });
});

describe('passwords through the SDK', () => {
  it('resets a forgotten password by code: old password dead, every session killed', async () => {
    const { mobile } = await accountWithPassword();
    const signedIn = server.sdkBrowser().client();
    await passwordLogin(signedIn, { mobile, password: GOOD_PASSWORD });

    const client = server.sdkBrowser().client();
    await passCooldown();
    await sendMobileCode(client, { mobile, type: CodeType.resetPassword });
    const code = await server.codeFor(mobile);
    await resetPassword(client, { mobile, code, password: OTHER_GOOD_PASSWORD });
    await rejectsWith(accountInfo(signedIn), 'notLoggedIn');
    await rejectsWith(passwordLogin(client, { mobile, password: GOOD_PASSWORD }), 'wrongCredentials');
    await passwordLogin(client, { mobile, password: OTHER_GOOD_PASSWORD });
    // The code was used up.
    await rejectsWith(resetPassword(client, { mobile, code, password: GOOD_PASSWORD }), 'codeExpired');
  });

  it('resets by ticket; a login code cannot reset', async () => {
    const { mobile } = await accountWithPassword();
    const browser = server.sdkBrowser();
    const { ticket } = await mobileTicket(browser, mobile, CodeType.resetPassword);
    await resetPasswordByTicket(browser.client(), { ticket, password: OTHER_GOOD_PASSWORD });
    await passwordLogin(browser.client(), { mobile, password: OTHER_GOOD_PASSWORD });

    const login = server.sdkBrowser();
    const { ticket: loginTicket } = await mobileTicket(login, mobile, CodeType.mobileLogin);
    await rejectsWith(
      resetPasswordByTicket(login.client(), { ticket: loginTicket, password: GOOD_PASSWORD }),
      'ticketInvalid',
    );
  });

  it('sets a first password, tells has-set, and updates it with the current one', async () => {
    const client = server.sdkBrowser().client();
    const mobile = freshMobile();
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
    await smsLogin(client, { mobile, code: await server.codeFor(mobile) });
    expect(await hasSetPassword(client)).toEqual({ has_set: false });
    await setPassword(client, { password: GOOD_PASSWORD });
    expect(await hasSetPassword(client)).toEqual({ has_set: true });
    await rejectsWith(setPassword(client, { password: OTHER_GOOD_PASSWORD }), 'passwordAlreadySet');
    await rejectsWith(
      updatePassword(client, { current_password: 'not the current one', password: OTHER_GOOD_PASSWORD }),
      'currentPasswordWrong',
    );
    await updatePassword(client, { current_password: GOOD_PASSWORD, password: OTHER_GOOD_PASSWORD });
    await accountInfo(client);
    await passwordLogin(server.sdkBrowser().client(), { mobile, password: OTHER_GOOD_PASSWORD });
  });

  it('refuses a common password with its reason code', async () => {
    const client = server.sdkBrowser().client();
    const mobile = freshMobile();
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
    await smsLogin(client, { mobile, code: await server.codeFor(mobile) });
    await rejectsWith(setPassword(client, { password: 'password123' }), 'passwordTooCommon');
  });
});
