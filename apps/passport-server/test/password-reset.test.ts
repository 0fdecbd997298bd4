import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, ErrorCode, paths } from '../src/protocol';
import {
  emailCode,
  emailTicket,
  GOOD_PASSWORD,
  isSignedIn,
  judgedWhile,
  mobileCode,
  mobileTicket,
  OTHER_GOOD_PASSWORD,
  passCooldown,
  sessionCount,
  signInBySms,
} from './support/flows';
import { type Browser, freshEmail, freshMobile, startServer, type TestServer } from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, { limits: { sendCooldownMs: 5, passwordFailuresPerAccount: 3 } });
});
afterAll(async () => server?.close());

/** An account with a password, signed in on two browsers (two devices). */
async function accountOnTwoDevices() {
  const phone = server.browser();
  const { mobile, userId } = await signInBySms(server, phone);
  await server.app.accounts.setPasswordHash(userId, await server.app.passwords.hash(GOOD_PASSWORD));
  await passCooldown();
  const laptop = server.browser();
  const login = await laptop.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
  expect(login.body.message, 'fixture: password sign-in').toBe('success');
  expect(await sessionCount(server, userId)).toBe(2);
  return { mobile, userId, phone, laptop };
}

/** An account with an e-mail address and a password, signed in on one browser. */
async function emailAccount() {
  const browser = server.browser();
  const email = freshEmail();
  const code = await emailCode(server, browser, email, CodeType.emailLogin);
  const login = await browser.post(paths.web.emailCodeLogin, { email, code });
  const userId = login.body.data.user_id as string;
  await server.app.accounts.setPasswordHash(userId, await server.app.passwords.hash(GOOD_PASSWORD));
  await passCooldown();
  return { email, userId, browser };
}

const passwordWorks = async (form: Record<string, string>) =>
  (await server.browser().post(paths.web.userLogin, form)).body.message === 'success';

describe('password reset', () => {
  it('resets by mobile code: every session dies, the old password stops working, the new one works', async () => {
    const { mobile, userId, phone, laptop } = await accountOnTwoDevices();
    const stranger = server.browser();
    const code = await mobileCode(server, stranger, mobile, CodeType.resetPassword);
    const answer = await stranger.post(paths.web.passwordReset, {
      mobile,
      code,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(answer.body).toEqual({ message: 'success', data: { user_id: userId, signed_in: false } });
    expect(await sessionCount(server, userId)).toBe(0);
    expect(await isSignedIn(phone)).toBe(false);
    expect(await isSignedIn(laptop)).toBe(false);
    expect(await isSignedIn(stranger)).toBe(false);
    expect(await passwordWorks({ mobile, password: GOOD_PASSWORD })).toBe(false);
    expect(await passwordWorks({ mobile, password: OTHER_GOOD_PASSWORD })).toBe(true);
  });

  it('signs out the browser that resets when it held a session of that account', async () => {
    const { mobile, phone } = await accountOnTwoDevices();
    const code = await mobileCode(server, phone, mobile, CodeType.resetPasswordAlt);
    const answer = await phone.post(paths.web.passwordReset, {
      mobile,
      code,
      type: CodeType.resetPasswordAlt,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(answer.body.message).toBe('success');
    expect(phone.cookies.has('sessionid')).toBe(false);
    expect(await isSignedIn(phone)).toBe(false);
  });

  it('refuses a login code, a wrong code, and a common new password', async () => {
    const { mobile } = await accountOnTwoDevices();
    const browser = server.browser();
    const loginCode = await mobileCode(server, browser, mobile, CodeType.mobileLogin);
    const asLogin = await browser.post(paths.web.passwordReset, {
      mobile,
      code: loginCode,
      type: CodeType.mobileLogin,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(asLogin.body.data.error_code).toBe(ErrorCode.codeTypeInvalid);
    const withoutType = await browser.post(paths.web.passwordReset, {
      mobile,
      code: loginCode,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(withoutType.body.data.error_code).toBe(ErrorCode.codeExpired);
    await passCooldown();
    const code = await mobileCode(server, browser, mobile, CodeType.resetPassword);
    const common = await browser.post(paths.web.passwordReset, { mobile, code, password: 'sunshine1' });
    expect(common.body.data.error_code).toBe(ErrorCode.passwordTooCommon);
    const wrong = String((Number(code) + 1) % 1e6).padStart(6, '0');
    const wrongCode = await browser.post(paths.web.passwordReset, {
      mobile,
      code: wrong,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(wrongCode.body.data.error_code).toBe(ErrorCode.codeWrong);
    expect(await passwordWorks({ mobile, password: GOOD_PASSWORD })).toBe(true);
  });

  it('lifts the password lock of the address that resets: an owner who locked themselves out is let back in', async () => {
    const { mobile } = await accountOnTwoDevices();
    const owner = server.browser();
    for (let i = 0; i < 3; i++) {
      const guess = await owner.post(paths.web.userLogin, { mobile, password: `guess number ${i}` });
      expect(guess.body.data.error_code).toBe(ErrorCode.wrongCredentials);
    }
    const locked = await owner.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(locked.body.data.error_code).toBe(ErrorCode.temporarilyLocked);

    const code = await mobileCode(server, owner, mobile, CodeType.resetPassword);
    const reset = await owner.post(paths.web.passwordReset, { mobile, code, password: OTHER_GOOD_PASSWORD });
    expect(reset.body.message).toBe('success');
    // The lock is lifted, not merely bypassed: wrong guesses start counting from zero again.
    const again = await owner.post(paths.web.userLogin, { mobile, password: 'guess number 9' });
    expect(again.body.data.error_code).toBe(ErrorCode.wrongCredentials);
    const back = await owner.post(paths.web.userLogin, { mobile, password: OTHER_GOOD_PASSWORD });
    expect(back.body.message).toBe('success');
  });

  it('does not tell a known number from an unknown one before the code is proven', async () => {
    const { mobile } = await accountOnTwoDevices();
    const unknown = freshMobile();
    const sentKnown = await server
      .browser()
      .post(paths.web.sendCode, { mobile, type: CodeType.resetPassword });
    const sentUnknown = await server
      .browser()
      .post(paths.web.sendCode, { mobile: unknown, type: CodeType.resetPassword });
    expect(sentKnown.status).toBe(sentUnknown.status);
    expect(Object.keys(sentUnknown.body.data)).toEqual(Object.keys(sentKnown.body.data));
    expect({ ...sentUnknown.body.data, mobile: '' }).toEqual({ ...sentKnown.body.data, mobile: '' });

    const form = (target: string) => ({ mobile: target, code: '000000', password: OTHER_GOOD_PASSWORD });
    const guessKnown = await server.browser().post(paths.web.passwordReset, form(mobile));
    const guessUnknown = await server.browser().post(paths.web.passwordReset, form(unknown));
    // 000000 may by chance be the real code; then the known-number reset would succeed. Vanishingly rare.
    expect(guessUnknown.body.data.error_code).toBe(guessKnown.body.data.error_code);
  });

  it('says ACCOUNT_NOT_FOUND only to whoever proved the code of an unknown number', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const code = await mobileCode(server, browser, mobile, CodeType.resetPassword);
    const answer = await browser.post(paths.web.passwordReset, {
      mobile,
      code,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(answer.body.data.error_code).toBe(ErrorCode.accountNotFound);
    const users = await server.app.db.selectFrom('users').select('id').where('mobile', '=', mobile).execute();
    expect(users).toHaveLength(0);
  });

  it('resets by ticket (validate_code, then password/reset_by_ticket)', async () => {
    const { mobile, userId, laptop } = await accountOnTwoDevices();
    const ticket = await mobileTicket(server, server.browser(), mobile, CodeType.resetPassword);
    const weak = await server
      .browser()
      .post(paths.web.passwordResetByTicket, { ticket, password: 'qwertyuiop' });
    expect(weak.body.data.error_code).toBe(ErrorCode.passwordTooCommon);
    const answer = await server
      .browser()
      .post(paths.web.passwordResetByTicket, { ticket, password: OTHER_GOOD_PASSWORD });
    expect(answer.body.data).toEqual({ user_id: userId, signed_in: false });
    expect(await isSignedIn(laptop)).toBe(false);
    expect(await passwordWorks({ mobile, password: OTHER_GOOD_PASSWORD })).toBe(true);
    const reused = await server
      .browser()
      .post(paths.web.passwordResetByTicket, { ticket, password: GOOD_PASSWORD });
    expect(reused.body.data.error_code).toBe(ErrorCode.ticketInvalid);
  });

  it('resets by e-mail code and by e-mail ticket', async () => {
    const { email, userId, browser } = await emailAccount();
    // A stranger's code is the browser's that asked for it: the reset comes from there.
    const asker = server.browser();
    const code = await emailCode(server, asker, email, CodeType.resetPassword);
    const byCode = await asker.post(paths.web.emailPasswordReset, {
      email,
      code,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(byCode.body.data).toEqual({ user_id: userId, signed_in: false });
    expect(await isSignedIn(browser)).toBe(false);
    expect(await passwordWorks({ email, password: OTHER_GOOD_PASSWORD })).toBe(true);

    await passCooldown();
    const ticket = await emailTicket(server, server.browser(), email, CodeType.resetPassword);
    const byTicket = await server
      .browser()
      .post(paths.web.passwordResetByEmailTicket, { ticket, password: GOOD_PASSWORD });
    expect(byTicket.body.message).toBe('success');
    expect(await passwordWorks({ email, password: OTHER_GOOD_PASSWORD })).toBe(false);
    expect(await passwordWorks({ email, password: GOOD_PASSWORD })).toBe(true);
  });

  it('resets by e-mail code and signs in anew, every other session dead', async () => {
    const { email, userId, browser: other } = await emailAccount();
    const browser = server.browser();
    const code = await emailCode(server, browser, email, CodeType.resetPassword);
    const answer = await browser.post(paths.web.emailPasswordResetAndLogin, {
      email,
      code,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(answer.body).toMatchObject({ message: 'success', data: { user_id: userId, has_password: true } });
    expect(await isSignedIn(browser)).toBe(true);
    expect(await isSignedIn(other)).toBe(false);
    expect(await sessionCount(server, userId)).toBe(1);
  });
});

describe('password change, update and set (signed in)', () => {
  async function changeCode(browser: Browser, mobile: string) {
    await passCooldown();
    return mobileCode(server, browser, mobile, CodeType.changePassword);
  }

  it('changes the password with a code to the own number: this browser stays in on a new token, others die', async () => {
    const { mobile, userId, phone, laptop } = await accountOnTwoDevices();
    const before = phone.cookies.get('sessionid');
    const code = await changeCode(phone, mobile);
    const answer = await phone.post(paths.web.passwordChange, {
      code,
      type: CodeType.changePassword,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(answer.body.data).toEqual({ user_id: userId, signed_in: true });
    expect(phone.cookies.get('sessionid')).not.toBe(before);
    expect(await isSignedIn(phone)).toBe(true);
    expect(await isSignedIn(laptop)).toBe(false);
    expect(await sessionCount(server, userId)).toBe(1);
    expect(await passwordWorks({ mobile, password: GOOD_PASSWORD })).toBe(false);
  });

  it("changes the password with a ticket, which must be the signed-in user's own", async () => {
    const { mobile, phone } = await accountOnTwoDevices();
    const code = await changeCode(phone, mobile);
    const checked = await phone.post(paths.web.validateCode, { mobile, code, type: CodeType.changePassword });
    const ticket = checked.body.data.ticket;
    const someoneElse = server.browser();
    await signInBySms(server, someoneElse);
    const stolen = await someoneElse.post(paths.web.passwordChange, {
      ticket,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(stolen.body.data.error_code).toBe(ErrorCode.ticketInvalid);
    const own = await phone.post(paths.web.passwordChange, { ticket, password: OTHER_GOOD_PASSWORD });
    expect(own.body.message).toBe('success');
    const neither = await phone.post(paths.web.passwordChange, { password: OTHER_GOOD_PASSWORD });
    expect(neither.status).toBe(400);
  });

  it('changes the password with an e-mail code', async () => {
    const { email, browser } = await emailAccount();
    const code = await emailCode(server, browser, email, CodeType.changePassword);
    const answer = await browser.post(paths.web.emailChangePassword, { code, password: OTHER_GOOD_PASSWORD });
    expect(answer.body.message).toBe('success');
    expect(await passwordWorks({ email, password: OTHER_GOOD_PASSWORD })).toBe(true);
  });

  it('needs a session to change, update, set or ask', async () => {
    const browser = server.browser();
    const cases: [string, Record<string, string>][] = [
      [paths.web.passwordChange, { code: '123456', password: OTHER_GOOD_PASSWORD }],
      [paths.web.emailChangePassword, { code: '123456', password: OTHER_GOOD_PASSWORD }],
      [paths.web.passwordUpdate, { current_password: GOOD_PASSWORD, password: OTHER_GOOD_PASSWORD }],
      [paths.web.passwordSet, { password: OTHER_GOOD_PASSWORD }],
      [paths.web.passwordHasSet, {}],
    ];
    for (const [url, form] of cases) {
      expect((await browser.post(url, form)).body.data.error_code, url).toBe(ErrorCode.notLoggedIn);
    }
    expect((await browser.get(paths.web.passwordHasSet)).body.data.error_code).toBe(ErrorCode.notLoggedIn);
  });

  it('updates with the current password: other sessions die, the old password stops working', async () => {
    const { mobile, userId, phone, laptop } = await accountOnTwoDevices();
    const answer = await phone.post(paths.web.passwordUpdate, {
      current_password: GOOD_PASSWORD,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(answer.body.data).toEqual({ user_id: userId, signed_in: true });
    expect(await isSignedIn(phone)).toBe(true);
    expect(await isSignedIn(laptop)).toBe(false);
    expect(await passwordWorks({ mobile, password: GOOD_PASSWORD })).toBe(false);
    expect(await passwordWorks({ mobile, password: OTHER_GOOD_PASSWORD })).toBe(true);
  });

  it('counts a wrong current password as a failure and locks the account for a while after three', async () => {
    const { phone, laptop } = await accountOnTwoDevices();
    for (let i = 0; i < 3; i++) {
      const wrong = await phone.post(paths.web.passwordUpdate, {
        current_password: `wrong guess ${i}`,
        password: OTHER_GOOD_PASSWORD,
      });
      expect(wrong.body.data.error_code).toBe(ErrorCode.currentPasswordWrong);
    }
    const locked = await laptop.post(paths.web.passwordUpdate, {
      current_password: GOOD_PASSWORD,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(locked.body.data.error_code).toBe(ErrorCode.temporarilyLocked);
    expect(await isSignedIn(laptop)).toBe(true);
  });

  it('locks after 3 of 30 parallel wrong current passwords', async () => {
    const { phone, laptop } = await accountOnTwoDevices();
    // Thirty requests of the phone's session at once (twins hold its cookies), each with another guess.
    const twins = Array.from({ length: 30 }, () => phone.twin());
    const { judged, codes: answers } = await judgedWhile(
      server,
      twins.map(
        (twin, i) => () =>
          twin.post(paths.web.passwordUpdate, {
            current_password: `wrong guess ${i}`,
            password: OTHER_GOOD_PASSWORD,
          }),
      ),
    );
    expect(judged).toBe(3);
    expect(answers.filter((code) => code === ErrorCode.currentPasswordWrong)).toHaveLength(3);
    expect(answers.filter((code) => code === ErrorCode.temporarilyLocked)).toHaveLength(27);
    // The lock holds for the right current password too, from the account's other device.
    const locked = await laptop.post(paths.web.passwordUpdate, {
      current_password: GOOD_PASSWORD,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(locked.body.data.error_code).toBe(ErrorCode.temporarilyLocked);
  });

  it('refuses a common new password on update before judging the current one', async () => {
    const { phone } = await accountOnTwoDevices();
    const answer = await phone.post(paths.web.passwordUpdate, {
      current_password: 'wrong',
      password: 'football1',
    });
    expect(answer.body.data.error_code).toBe(ErrorCode.passwordTooCommon);
  });

  it('sets a first password once; has-set answers by GET and POST', async () => {
    const browser = server.browser();
    const { mobile } = await signInBySms(server, browser);
    expect((await browser.get(paths.web.passwordHasSet)).body).toEqual({
      message: 'success',
      data: { has_set: false },
    });
    const update = await browser.post(paths.web.passwordUpdate, {
      current_password: 'anything',
      password: GOOD_PASSWORD,
    });
    expect(update.body.data.error_code).toBe(ErrorCode.passwordNotSet);
    const set = await browser.post(paths.web.passwordSet, { password: GOOD_PASSWORD });
    expect(set.body.message).toBe('success');
    expect(await isSignedIn(browser)).toBe(true);
    expect((await browser.post(paths.web.passwordHasSet)).body.data).toEqual({ has_set: true });
    expect((await browser.get(paths.web.passwordHasSet)).body.data).toEqual({ has_set: true });
    const again = await browser.post(paths.web.passwordSet, { password: OTHER_GOOD_PASSWORD });
    expect(again.body.data.error_code).toBe(ErrorCode.passwordAlreadySet);
    expect(await passwordWorks({ mobile, password: GOOD_PASSWORD })).toBe(true);
  });

  it('lets only one of two concurrent first-password sets win', async () => {
    const browser = server.browser();
    await signInBySms(server, browser);
    const answers = await Promise.all([
      browser.post(paths.web.passwordSet, { password: GOOD_PASSWORD }),
      browser.post(paths.web.passwordSet, { password: OTHER_GOOD_PASSWORD }),
    ]);
    expect(answers.filter((a) => a.body.message === 'success')).toHaveLength(1);
    expect(answers.filter((a) => a.body.data.error_code === ErrorCode.passwordAlreadySet)).toHaveLength(1);
  });
});
